/** The RCS adapter wired to its simulator over real HTTP (see `http-kit/carrier-rig.test-support.ts`). */
import { randomUUID } from 'node:crypto';
import type { OutboundMessage } from '../../provider.ts';
import { type CarrierRig, type RigProviderOptions, wireCarrierRig } from '../http-kit/carrier-rig.test-support.ts';
import { createRcsProvider, type RcsProviderOptions } from './rcs.provider.ts';
import { type RcsSimulator, startRcsSimulator } from './rcs.simulator.ts';
import type { RcsSimulatorOptions } from './rcs.simulator-options.ts';
import { RCS_WEBHOOK_PATH } from './rcs.webhook.ts';

export type RcsRig = CarrierRig<RcsSimulator>;

/** A quick simulator by default: no latency, events at once, no retries, no throughput limit. */
export async function startRcsRig(
  simulatorOptions: Partial<RcsSimulatorOptions> = {},
  providerOptions: RigProviderOptions<RcsProviderOptions> = {},
): Promise<RcsRig> {
  const simulator = await startRcsSimulator({
    latencyMs: 0,
    eventDelayMs: 0,
    callbackRetries: 0,
    throughputPerSecond: null,
    ...simulatorOptions,
  });
  const provider = createRcsProvider({
    mode: 'simulator',
    ...providerOptions,
    config: { ...simulator.config, ...providerOptions.config },
  });
  return wireCarrierRig({
    simulator,
    provider,
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
