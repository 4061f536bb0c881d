/**
 * The adapter wired to its simulator over real HTTP, as the tests, the fuzz suite and the bench
 * use it: the simulator, the provider pointed at it, the provider's webhook routes served on
 * loopback (the simulator's callback URL), and every event the provider emitted.
 */
import type { ChannelProvider, ProviderEvent } from '../../provider.ts';
import { serveWebhooks, type WebhookServer } from '../http-kit/webhook-server.test-support.ts';
import { createWhatsAppProvider, WHATSAPP_PROVIDER, type WhatsAppProviderOptions } from './whatsapp.provider.ts';
import { startWhatsAppSimulator, type WhatsAppSimulator } from './whatsapp.simulator.ts';
import type { WhatsAppSimulatorOptions } from './whatsapp.simulator-options.ts';
import { WHATSAPP_WEBHOOK_PATH } from './whatsapp.webhook.ts';

export type WhatsAppRig = {
  simulator: WhatsAppSimulator;
  provider: ChannelProvider;
  webhooks: WebhookServer;
  /** The webhook URL the simulator posts to. */
  webhookUrl: string;
  events: ProviderEvent[];
  close(): Promise<void>;
};

/** A quick simulator by default: no latency, statuses at once, no retries, no throughput limit. */
export async function startWhatsAppRig(
  simulatorOptions: Partial<WhatsAppSimulatorOptions> = {},
  providerOptions: Partial<Omit<WhatsAppProviderOptions, 'config'>> & {
    config?: Partial<WhatsAppProviderOptions['config']>;
  } = {},
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
  const events: ProviderEvent[] = [];
  provider.onEvent(async (event) => {
    events.push(event);
  });
  const webhooks = await serveWebhooks(WHATSAPP_PROVIDER, provider.webhooks);
  const webhookUrl = `${webhooks.baseUrl}${WHATSAPP_WEBHOOK_PATH}`;
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
