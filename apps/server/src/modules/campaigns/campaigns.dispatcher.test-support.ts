/**
 * For the dispatch loop's tests (campaigns.dispatcher.test.ts, campaigns.settle-outcomes.test.ts):
 * a scripted carrier whose answer to each submit the test sets (take it, "try later", refuse it for
 * good, no answer), with the rate limit it reports, and which records every submit and how many
 * recipients the claim it came in took.
 */
import type { Channel } from '@ecoa/shared';
import {
  type ChannelProvider,
  type OutboundMessage,
  ProviderError,
  type ProviderHealth,
  type SubmitResult,
} from '../channels/provider.ts';

type Answer = 'take' | 'retry' | 'fail' | 'unknown';
type Submit = { id: string; to: string; at: number; claimed: number };

export class Carrier implements ChannelProvider {
  readonly webhooks = [];
  tpsLimit: number | null = null;
  /** How the carrier answers a submit (`n`: how many times it saw this message before). */
  answer: (message: OutboundMessage, n: number) => Answer = () => 'take';
  /** Awaited before each answer (a test holds the carrier until every loop of the campaign started). */
  before: (message: OutboundMessage, n: number) => Promise<void> = async () => {};
  readonly submits: Submit[] = [];
  /** The stop signal the dispatcher handed with the last submit. */
  lastSignal: AbortSignal | undefined;
  private seq = 0;
  constructor(
    private readonly claimedNow: (messageId: string) => Promise<number>,
    readonly name = 'dispatch-scripted',
    readonly channels: readonly Channel[] = ['sms_short'],
  ) {}

  async submit(message: OutboundMessage, options?: { signal?: AbortSignal }): Promise<SubmitResult> {
    this.lastSignal = options?.signal;
    const n = this.submits.filter((s) => s.id === message.id).length;
    const claimed = await this.claimedNow(message.id);
    this.submits.push({ id: message.id, to: message.to, at: Date.now(), claimed });
    await this.before(message, n);
    const answer = this.answer(message, n);
    if (answer === 'retry') throw new ProviderError('SCRIPTED_THROTTLED', 'throttled', { retryable: true });
    if (answer === 'fail') throw new ProviderError('SCRIPTED_INVALID', 'invalid destination');
    if (answer === 'unknown') throw new ProviderError('SCRIPTED_TIMEOUT', 'no answer', { sentUnknown: true });
    return { providerMessageIds: [`ds-${++this.seq}`] };
  }
  onEvent(): void {}
  health(): ProviderHealth {
    const { tpsLimit } = this;
    return {
      provider: this.name,
      mode: 'simulator',
      connected: true,
      tpsLimit,
      tpsInUse: 0,
      inFlight: 0,
      lastError: null,
    };
  }
  async close(): Promise<void> {}
  reset(): void {
    this.submits.length = 0;
    this.tpsLimit = null;
    this.answer = () => 'take';
    this.before = async () => {};
  }
}
