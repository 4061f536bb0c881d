/**
 * The adapter wired to its simulator over real HTTP, as the tests, the fuzz suite and the bench
 * use it: the simulator, the provider pointed at it, the provider's webhook routes served on
 * loopback (the simulator's callback URL), and every event the provider emitted.
 */
import type { ChannelProvider, ProviderEvent } from '../../provider.ts';
import { serveWebhooks, type WebhookServer } from '../http-kit/webhook-server.test-support.ts';
import { createRcsProvider, RCS_PROVIDER, type RcsProviderOptions } from './rcs.provider.ts';
import { type RcsSimulator, startRcsSimulator } from './rcs.simulator.ts';
import type { RcsSimulatorOptions } from './rcs.simulator-options.ts';
import { RCS_WEBHOOK_PATH } from './rcs.webhook.ts';

export type RcsRig = {
  simulator: RcsSimulator;
  provider: ChannelProvider;
  webhooks: WebhookServer;
  /** The webhook URL the simulator posts to. */
  webhookUrl: string;
  events: ProviderEvent[];
  close(): Promise<void>;
};

/** A quick simulator by default: no latency, events at once, no retries, no throughput limit. */
export async function startRcsRig(
  simulatorOptions: Partial<RcsSimulatorOptions> = {},
  providerOptions: Partial<Omit<RcsProviderOptions, 'config'>> & {
    config?: Partial<RcsProviderOptions['config']>;
  } = {},
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
  const events: ProviderEvent[] = [];
  provider.onEvent(async (event) => {
    events.push(event);
  });
  const webhooks = await serveWebhooks(RCS_PROVIDER, provider.webhooks);
  const webhookUrl = `${webhooks.baseUrl}${RCS_WEBHOOK_PATH}`;
  if (simulatorOptions.callbackUrl === undefined) simulator.setOptions({ callbackUrl: webhookUrl });
  return {
    simulator,
    provider,
    webhooks,
    webhookUrl,
    events,
    async close() {
      await simulator.close();
      await provider.close();
      await webhooks.close();
    },
  };
}
