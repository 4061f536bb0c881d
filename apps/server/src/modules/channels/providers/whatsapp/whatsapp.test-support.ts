/** The WhatsApp adapter wired to its simulator over real HTTP (see `http-kit/carrier-rig.test-support.ts`). */
import { type CarrierRig, carrierRigStarter } from '../http-kit/carrier-rig.test-support.ts';
import { createWhatsAppProvider } from './whatsapp.provider.ts';
import { startWhatsAppSimulator, type WhatsAppSimulator } from './whatsapp.simulator.ts';
import { WHATSAPP_WEBHOOK_PATH } from './whatsapp.webhook.ts';

export type WhatsAppRig = CarrierRig<WhatsAppSimulator>;

/** A quick simulator by default: no latency, statuses at once, no retries, no throughput limit. */
export const startWhatsAppRig = carrierRigStarter(
  startWhatsAppSimulator,
  { statusDelayMs: 0 },
  createWhatsAppProvider,
  WHATSAPP_WEBHOOK_PATH,
);
