/**
 * Handing one claimed batch to the channel's provider: every recipient's outcome, nothing here
 * throws. The stop signal ends the paces' waits and is checked right before each recipient is
 * handed over; the provider gets it too and drops what it has not written (SUBMIT_STOPPED). An
 * error before a recipient's submit (the opt-outs could not be read, its audio is gone) gives it
 * back (`retry`, with the reason): it never reached the carrier, so it is never charged.
 */
import type { Channel } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import { PaceAbortedError } from '../../platform/pacing/paced-turns.ts';
import { type ChannelProvider, type InflightBatch, ProviderError, SUBMIT_STOPPED } from '../channels/index.ts';
import type { OptOutsService } from '../opt-outs/index.ts';
import { withAudioUrl } from './campaigns.content.ts';
import type { ClaimedRecipient } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import type { Outcome } from './campaigns.settle.ts';

const SUBMIT_ATTEMPTS = 3;

/** A rate to keep (a campaign's, a carrier's): a turn, or PaceAbortedError when the signal aborts first. */
export type Pace = { take(signal?: AbortSignal): Promise<void> };

export type HandOverDeps = {
  optOuts: Pick<OptOutsService, 'optedOut'>;
  audioUrl: (userId: string, audioId: string) => Promise<string>;
  logger: Logger;
  /** Times the opt-outs lookup (the dispatcher's phase figures). */
  timeOptOuts: <T>(work: () => Promise<T>) => Promise<T>;
};

/** Waits `ms`, or less when `signal` aborts first. */
export const sleepUnlessStopped = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent: done() removes the listener itself, `once` only repeats it
    signal.addEventListener('abort', done, { once: true });
  });

export function createHandOver(deps: HandOverDeps) {
  const { logger } = deps;

  async function submitOne(
    provider: ChannelProvider,
    channel: Channel,
    c: ClaimedRecipient,
    content: ClaimedRecipient['content'],
    inflight: InflightBatch,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const unsent: Outcome = { id: c.id, parts: c.parts, kind: 'unsent', reason: SUBMIT_STOPPED };
    for (let attempt = 1; ; attempt++) {
      // The last check before the carrier: a stopped sending hands nothing more over.
      if (signal.aborted) return unsent;
      try {
        const result = await provider.submit({ id: c.id, channel, to: c.toPhone, content }, { signal });
        inflight.track(provider.name, result.providerMessageIds);
        return { id: c.id, parts: c.parts, kind: 'sent', providerIds: result.providerMessageIds };
      } catch (err) {
        if (!(err instanceof ProviderError)) {
          // Our own bug or a broken answer: the request may have reached the carrier.
          logger.error({ err, messageId: c.id }, 'campaign submit failed unexpectedly');
          return { id: c.id, parts: c.parts, kind: 'unknown', reason: 'INTERNAL' };
        }
        const { sentUnknown, retryable, providerMessageIds } = err.options;
        if (sentUnknown)
          return { id: c.id, parts: c.parts, kind: 'unknown', reason: err.reason, providerIds: providerMessageIds };
        if (!retryable) return { id: c.id, parts: c.parts, kind: 'failed', reason: err.reason };
        if (err.reason === SUBMIT_STOPPED || signal.aborted) return unsent;
        if (attempt >= SUBMIT_ATTEMPTS)
          return { id: c.id, parts: c.parts, kind: 'retry', reason: err.reason, message: err.message };
        await sleepUnlessStopped(250 * attempt, signal);
      }
    }
  }

  /**
   * Every claimed recipient's outcome; nothing here throws. An error before a recipient's submit
   * (the opt-outs could not be read, its audio is gone) gives it back (`retry`, with the reason):
   * it never reached the carrier, so it is never charged; when it keeps happening the campaign
   * is paused with the reason (watchCarrier).
   */
  return async function handOver(
    row: CampaignRow,
    provider: ChannelProvider,
    claimed: ClaimedRecipient[],
    { signal, inflight, paces }: { signal: AbortSignal; inflight: InflightBatch; paces: (Pace | null)[] },
  ): Promise<Outcome[]> {
    const before = (c: ClaimedRecipient, err: unknown): Outcome => ({
      id: c.id,
      parts: c.parts,
      kind: 'retry',
      reason: err instanceof AppError ? err.code : 'DISPATCH_ERROR',
      message: err instanceof Error ? err.message : String(err),
    });
    let optedOut: Set<string>;
    try {
      optedOut = await deps.timeOptOuts(() =>
        deps.optOuts.optedOut(
          row.userId,
          claimed.map((c) => c.toPhone),
        ),
      );
    } catch (err) {
      logger.warn({ err, campaignId: row.id }, 'opt-outs not read: the batch goes back to the queue');
      return claimed.map((c) => before(c, err));
    }
    const signed = new Map<string, Promise<string>>();
    const sign = (audioId: string) => {
      if (!signed.has(audioId)) signed.set(audioId, deps.audioUrl(row.userId, audioId));
      return signed.get(audioId)!;
    };
    return Promise.all(
      claimed.map(async (c): Promise<Outcome> => {
        if (optedOut.has(c.toPhone)) return { id: c.id, parts: c.parts, kind: 'opted_out', reason: 'OPTED_OUT' };
        let content: ClaimedRecipient['content'];
        try {
          content = await withAudioUrl(c.content, sign);
        } catch (err) {
          return before(c, err);
        }
        try {
          for (const pace of paces) await pace?.take(signal);
        } catch (err) {
          if (err instanceof PaceAbortedError)
            return { id: c.id, parts: c.parts, kind: 'unsent', reason: SUBMIT_STOPPED };
          return before(c, err);
        }
        return submitOne(provider, row.channel, c, content, inflight, signal);
      }),
    );
  };
}
