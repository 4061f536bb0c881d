/** The WhatsApp adapter wired to its simulator over real HTTP (see `http-kit/carrier-rig.test-support.ts`). */
import {
  type CarrierRig,
  QUICK_SIMULATOR,
  type RigProviderOptions,
  startCarrierRig,
} from '../http-kit/carrier-rig.test-support.ts';
import { createWhatsAppProvider, type WhatsAppConfig } from './whatsapp.provider.ts';
import { startWhatsAppSimulator, type WhatsAppSimulator } from './whatsapp.simulator.ts';
import type { WhatsAppSimulatorOptions } from './whatsapp.simulator-options.ts';
import { WHATSAPP_WEBHOOK_PATH } from './whatsapp.webhook.ts';

export type WhatsAppRig = CarrierRig<WhatsAppSimulator>;

/** A quick simulator by default: no latency, statuses at once, no retries, no throughput limit. */
export async function startWhatsAppRig(
  simulatorOptions: Partial<WhatsAppSimulatorOptions> = {},
  providerOptions: RigProviderOptions<WhatsAppConfig> = {},
): Promise<WhatsAppRig> {
  return startCarrierRig({
    simulator: await startWhatsAppSimulator({ ...QUICK_SIMULATOR, statusDelayMs: 0, ...simulatorOptions }),
    createProvider: createWhatsAppProvider,
    providerOptions,
    webhookPath: WHATSAPP_WEBHOOK_PATH,
    callbackUrlChosen: simulatorOptions.callbackUrl !== undefined,
  });
}
