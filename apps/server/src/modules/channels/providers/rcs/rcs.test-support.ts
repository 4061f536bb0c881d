/** The RCS adapter wired to its simulator over real HTTP (see `http-kit/carrier-rig.test-support.ts`). */
import { randomUUID } from 'node:crypto';
import type { OutboundMessage } from '../../provider.ts';
import { type CarrierRig, carrierRigStarter } from '../http-kit/carrier-rig.test-support.ts';
import { createRcsProvider } from './rcs.provider.ts';
import { type RcsSimulator, startRcsSimulator } from './rcs.simulator.ts';
import { RCS_WEBHOOK_PATH } from './rcs.webhook.ts';

export type RcsRig = CarrierRig<RcsSimulator>;

/** A quick simulator by default: no latency, events at once, no retries, no throughput limit. */
export const startRcsRig = carrierRigStarter(
  startRcsSimulator,
  { eventDelayMs: 0 },
  createRcsProvider,
  RCS_WEBHOOK_PATH,
);

/** A plain RCS text to `to`, with a fresh message id. */
export const rcsText = (to: string): OutboundMessage => ({
  id: randomUUID(),
  channel: 'rcs',
  to,
  content: { kind: 'rcs', text: 'Olá' },
});
