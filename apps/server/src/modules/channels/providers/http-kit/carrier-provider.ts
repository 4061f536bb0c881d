/**
 * The shell every HTTP carrier adapter shares: its checks before a turn, the pace, the sends in
 * flight counted in its health, a request without an answer judged by the carrier, webhooks
 * that stop emitting once it is closed. Each adapter (rcs/, whatsapp/) gives only its protocol.
 */
import type { Channel } from '@ecoa/shared';
import type { Clock } from '../../../../platform/clock/clock.ts';
import type { RateShare } from '../../../../platform/pacing/process-share.ts';
import type {
  ChannelProvider,
  EventListener,
  OutboundMessage,
  ProviderError,
  SubmitOptions,
  SubmitResult,
  WebhookRoute,
} from '../../provider.ts';
import type { HealthTracker } from './health.ts';
import { TransportError } from './http-client.ts';
import { type SendPacer, waitOrStopped } from './pacer.ts';

/** How an HTTP carrier adapter is created: its configuration, and what may override it. */
export type CarrierOptions<Config> = {
  config: Config;
  mode: 'simulator' | 'real';
  /** Overrides the configured sends per second. */
  messagesPerSecond?: number;
  timeoutMs?: number;
  clock?: Clock;
  /** This process's share of the limit, when several processes send (process-share.ts). */
  share?: RateShare;
};

export type CarrierAdapter<Content> = {
  name: string;
  channels: readonly Channel[];
  pacer: SendPacer;
  health: HealthTracker;
  /** Refuses what this carrier cannot send (the content, the number): final, before any turn; else the content to send. */
  check(message: OutboundMessage): Content;
  /** The refusal of a send once the adapter is closed (retryable: the message is not lost). */
  closedError(): ProviderError;
  /** The request itself, once its turn came: the carrier's answer as ids or a ProviderError. */
  send(message: OutboundMessage, content: Content): Promise<SubmitResult>;
  /** What a request without an answer means at this carrier (its health told). */
  transportFailure(err: TransportError): ProviderError;
  webhooks(listener: () => EventListener | undefined): WebhookRoute[];
};

export function carrierProvider<Content>(adapter: CarrierAdapter<Content>): ChannelProvider {
  const { pacer, health } = adapter;
  let listener: EventListener | undefined;
  let closed = false;

  async function submit(message: OutboundMessage, options: SubmitOptions = {}): Promise<SubmitResult> {
    const content = adapter.check(message);
    if (closed) throw adapter.closedError();
    await waitOrStopped(pacer, options.signal, adapter.name);
    if (closed) throw adapter.closedError();
    health.started();
    try {
      return await adapter.send(message, content);
    } catch (err) {
      if (err instanceof TransportError) throw adapter.transportFailure(err);
      throw err;
    } finally {
      health.finished();
    }
  }

  return {
    name: adapter.name,
    channels: adapter.channels,
    submit,
    onEvent(fn) {
      listener = fn;
    },
    webhooks: adapter.webhooks(() => (closed ? undefined : listener)),
    health: () => health.snapshot(),
    async close() {
      closed = true;
    },
  };
}
