/** The WhatsApp adapter wired to its simulator over real HTTP (see `http-kit/carrier-rig.test-support.ts`). */
import { type CarrierRig, type RigProviderOptions, wireCarrierRig } from '../http-kit/carrier-rig.test-support.ts';
import { createWhatsAppProvider, type WhatsAppProviderOptions } from './whatsapp.provider.ts';
import { startWhatsAppSimulator, type WhatsAppSimulator } from './whatsapp.simulator.ts';
import type { WhatsAppSimulatorOptions } from './whatsapp.simulator-options.ts';
import { WHATSAPP_WEBHOOK_PATH } from './whatsapp.webhook.ts';

export type WhatsAppRig = CarrierRig<WhatsAppSimulator>;

/** A quick simulator by default: no latency, statuses at once, no retries, no throughput limit. */
export async function startWhatsAppRig(
  simulatorOptions: Partial<WhatsAppSimulatorOptions> = {},
  providerOptions: RigProviderOptions<WhatsAppProviderOptions> = {},
): Promise<WhatsAppRig> {
  const simulator = await startWhatsAppSimulator({
    latencyMs: 0,
    statusDelayMs: 0,
    callbackRetries: 0,
    throughputPerSecond: null,
    ...simulatorOptions,
  });
  const provider = createWhatsAppProvider({
    mode: 'simulator',
    ...providerOptions,
    config: { ...simulator.config, ...providerOptions.config },
  });
  return wireCarrierRig({
    simulator,
    provider,
    webhookPath: WHATSAPP_WEBHOOK_PATH,
    callbackUrlChosen: simulatorOptions.callbackUrl !== undefined,
  });
}
