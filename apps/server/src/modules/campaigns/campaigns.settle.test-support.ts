/**
 * For the settle rules' property test (campaigns.settle.property.test.ts): a carrier whose every
 * submit waits until the test says how it ends, and the steps an interleaving is made of.
 */
import { analyzeSms, type Channel } from '@ecoa/shared';
import fc from 'fast-check';
import {
  type ChannelProvider,
  type EventListener,
  type OutboundMessage,
  ProviderError,
  type ProviderHealth,
  type SubmitResult,
} from '../channels/provider.ts';

/** A scripted carrier's health: a connected simulator without limits, `inFlight` submits unanswered. */
export function scriptedHealth(provider: string, inFlight: number): ProviderHealth {
  return { provider, mode: 'simulator', connected: true, tpsLimit: null, tpsInUse: 0, inFlight, lastError: null };
}

export type Pending = { message: OutboundMessage; resolve(result: SubmitResult): void; reject(err: Error): void };

/** A carrier that answers nothing until told: the test decides each submit's fate and when. */
export class ScriptedCarrier implements ChannelProvider {
  readonly name = 'scripted';
  readonly channels: readonly Channel[] = ['sms_short'];
  readonly webhooks = [];
  readonly pending: Pending[] = [];
  /** Carrier ids of each message taken, per part. */
  readonly taken = new Map<string, string[]>();
  private listener: EventListener | undefined;
  private seq = 0;

  /** Messages the carrier keeps refusing ("try later") until told otherwise. */
  readonly refusing = new Set<string>();
  /** Messages that may have reached the carrier (taken, or maybe-sent): one more submit of them is a double send. */
  readonly handedOver = new Set<string>();
  readonly sentTwice: string[] = [];

  submit(message: OutboundMessage): Promise<SubmitResult> {
    if (this.handedOver.has(message.id)) this.sentTwice.push(message.id);
    if (this.closed || this.refusing.has(message.id))
      return Promise.reject(new ProviderError('SCRIPTED_THROTTLED', 'throttled', { retryable: true }));
    return new Promise((resolve, reject) => this.pending.push({ message, resolve, reject }));
  }
  onEvent(listener: EventListener): void {
    this.listener = listener;
  }
  health() {
    return scriptedHealth(this.name, this.pending.length);
  }
  private closed = false;
  /** Whatever is still waiting is refused (nothing left Ecoa), and so is anything after: loops end. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.pending.splice(0))
      p.reject(new ProviderError('SCRIPTED_CLOSED', 'closed', { retryable: true }));
  }

  /** Carrier ids for a message it takes: one per SMS part, as an SMSC gives them. */
  idsFor(message: OutboundMessage): string[] {
    const text = message.content.kind === 'sms' ? message.content.text : '';
    return analyzeSms(text).parts.map(() => `sc-${++this.seq}`);
  }
  /** Receipts Ecoa refused (the carrier would retry them): each with its error. */
  readonly refusedReceipts: string[] = [];
  /** A receipt for every part of a message; not awaited (a webhook may wait for its batch). */
  receipt(ids: string[], status: 'delivered' | 'failed'): Promise<void>[] {
    return ids.map((providerMessageId) =>
      this.listener!({
        type: 'status',
        provider: this.name,
        providerMessageId,
        status,
        ...(status === 'failed' ? { reason: 'SCRIPTED_UNDELIV' } : {}),
        at: new Date(),
      }).then(
        () => undefined,
        (err: Error) => {
          this.refusedReceipts.push(`${providerMessageId}: ${(err as { code?: string }).code ?? err.message}`);
        },
      ),
    );
  }
}

/** One step of an interleaving. `pick` chooses among what exists at that moment (modulo its size). */
export type Step =
  | { kind: 'submit'; pick: number; outcome: 'sent' | 'failed' | 'unknown' | 'retry' }
  /** The carrier's receipt arrives before its submit's answer (the SMSC race), then the answer. */
  | { kind: 'receipt-first'; pick: number; status: 'delivered' | 'failed' }
  | { kind: 'receipt'; pick: number; status: 'delivered' | 'failed' }
  /** Another process claimed some rows and died: the supervisor cuts them off. */
  | { kind: 'dead-worker'; count: number }
  /** The live batch looks dead to the supervisor (its rows untouched for longer than the cut-off). */
  | { kind: 'stale-batch' }
  | { kind: 'supervisor' }
  | { kind: 'cancel' }
  | { kind: 'wait' };

export const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      pick: fc.nat(),
      outcome: fc.constantFrom(
        'sent' as const,
        'sent' as const,
        'failed' as const,
        'unknown' as const,
        'retry' as const,
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('receipt-first' as const),
      pick: fc.nat(),
      status: fc.constantFrom('delivered' as const, 'failed' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('receipt' as const),
      pick: fc.nat(),
      status: fc.constantFrom('delivered' as const, 'failed' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('dead-worker' as const), count: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'stale-batch' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'supervisor' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'cancel' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wait' as const }) },
);
