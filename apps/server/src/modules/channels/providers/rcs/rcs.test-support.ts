/** The RCS adapter wired to its simulator over real HTTP (see `http-kit/carrier-rig.test-support.ts`). */
import { randomUUID } from 'node:crypto';
import type { OutboundMessage } from '../../provider.ts';
import {
  type CarrierRig,
  QUICK_SIMULATOR,
  type RigProviderOptions,
  startCarrierRig,
} from '../http-kit/carrier-rig.test-support.ts';
import { createRcsProvider, type RcsConfig } from './rcs.provider.ts';
import { type RcsSimulator, startRcsSimulator } from './rcs.simulator.ts';
import type { RcsSimulatorOptions } from './rcs.simulator-options.ts';
import { RCS_WEBHOOK_PATH } from './rcs.webhook.ts';

export type RcsRig = CarrierRig<RcsSimulator>;

/** A quick simulator by default: no latency, events at once, no retries, no throughput limit. */
export async function startRcsRig(
  simulatorOptions: Partial<RcsSimulatorOptions> = {},
  providerOptions: RigProviderOptions<RcsConfig> = {},
): Promise<RcsRig> {
  return startCarrierRig({
    simulator: await startRcsSimulator({ ...QUICK_SIMULATOR, eventDelayMs: 0, ...simulatorOptions }),
    createProvider: createRcsProvider,
    providerOptions,
    webhookPath: RCS_WEBHOOK_PATH,
    callbackUrlChosen: simulatorOptions.callbackUrl !== undefined,
  });
}

/** A plain RCS text to `to`, with a fresh message id. */
export const rcsText = (to: string): OutboundMessage => ({
  id: randomUUID(),
  channel: 'rcs',
  to,
  content: { kind: 'rcs', text: 'Olá' },
});
