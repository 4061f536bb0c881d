/**
 * The dispatch loop (the `campaigns.dispatch` job): claims a batch of a RUNNING campaign's queued
 * recipients (→ `submitting`, SKIP LOCKED, so any number of dispatchers in any number of
 * processes share a campaign without ever claiming a recipient twice), sends them through the
 * channel's provider at the campaign's and the carrier's rate, then stores every outcome and
 * moves the credits in ONE transaction per batch: sent and unknown captured, failed and opted-out
 * released. A recipient is never put back to `queued` unless the carrier said nothing left Ecoa.
 */
import { type Channel, isInWindow } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { SubmittedBatchResult } from '../channels/channels.batch.ts';
import type { InflightBatch } from '../channels/inflight-submits.ts';
import { type ChannelProvider, ProviderError, type StatusEvent } from '../channels/provider.ts';
import type { ProviderRegistry } from '../channels/providers/registry.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { OptOutsService } from '../opt-outs/opt-outs.service.ts';
import { withAudioUrl } from './campaigns.content.ts';
import type { CampaignLifecycle } from './campaigns.lifecycle.ts';
import type { CampaignsRepository, ClaimedRecipient } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import { DISPATCH_QUEUE } from './campaigns.service.ts';
import { createPacers } from './rate-pacer.ts';

/** Where a batch's outcomes are stored (the channels module's set-based writes). */
export type RecipientStore = {
  recordSubmittedBatch(
    rows: { messageId: string; provider: string; providerIds: string[] }[],
    now: Date,
    tx: DbOrTx,
    arrived?: StatusEvent[],
  ): Promise<SubmittedBatchResult>;
  /** Returns the ids that moved (a message settled meanwhile does not). */
  settleBatch(
    rows: { messageId: string; status: 'failed' | 'unknown' | 'opted_out' | 'canceled'; reason: string | null }[],
    now: Date,
    tx: DbOrTx,
  ): Promise<Set<string>>;
  /** A batch the receipts of its submits can join while it is being sent (channels' in-flight registry). */
  inflightBatch(): InflightBatch;
};

export type DispatcherDeps = {
  db: Database;
  repo: CampaignsRepository;
  store: RecipientStore;
  ledger: Pick<LedgerService, 'capture' | 'release'>;
  providers: Pick<ProviderRegistry, 'forChannel'>;
  optOuts: Pick<OptOutsService, 'optedOut'>;
  audioUrl: (userId: string, audioId: string) => Promise<string>;
  lifecycle: Pick<CampaignLifecycle, 'finishIfDone' | 'pauseForProvider'>;
  /** Follow-ups of receipts that had arrived before their submit was stored (URA digits). */
  afterReceipt: (event: StatusEvent, messageId: string) => Promise<void>;
  jobs: Pick<Jobs, 'send'>;
  /** Dispatching processes alive now: rates are shared among them. */
  liveWorkers: () => number;
  workerId: string;
  clock: Clock;
  logger: Logger;
  batchSize?: number;
};

type Outcome =
  | { id: string; parts: number; kind: 'sent'; providerIds: string[] }
  | { id: string; parts: number; kind: 'failed' | 'unknown' | 'opted_out'; reason: string }
  /** Nothing left Ecoa (throttled, carrier down): back to the queue. */
  | { id: string; parts: number; kind: 'retry'; reason: string; message: string };

/** A carrier that answered nothing but "try later" this many batches in a row pauses the campaign. */
const PROVIDER_FAILURES_TO_PAUSE = 3;
const SUBMIT_ATTEMPTS = 3;
/** A dispatch job hands over to a fresh one after this long (its lease stays short, pg-boss stays fair). */
const SLICE_MS = 5 * 60_000;
/** How often a working process refreshes a campaign's heartbeat (the supervisor's dead-worker limit is 30 s). */
const BEAT_EVERY_MS = 5_000;

export function createDispatcher(deps: DispatcherDeps) {
  const { repo, clock, logger } = deps;
  const batchSize = deps.batchSize ?? 500;
  const pacers = createPacers();
  let stopping = false;
  /** Milliseconds spent per phase, summed over this process's loops (`npm run bench` reports where the time goes). */
  const spent = { batches: 0, claimMs: 0, optOutsMs: 0, submitMs: 0, settleMs: 0, loopMs: 0 };
  async function timed<T>(phase: Exclude<keyof typeof spent, 'batches'>, work: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      spent[phase] += performance.now() - t0;
    }
  }
  const lastBeat = new Map<string, number>();
  /** Campaigns this process dispatches right now (jobs and joins), with their loops. */
  const local = new Map<string, Set<Promise<void>>>();

  async function submitOne(
    provider: ChannelProvider,
    channel: Channel,
    c: ClaimedRecipient,
    content: ClaimedRecipient['content'],
    inflight: InflightBatch,
  ): Promise<Outcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await provider.submit({ id: c.id, channel, to: c.toPhone, content });
        inflight.track(provider.name, result.providerMessageIds);
        return { id: c.id, parts: c.parts, kind: 'sent', providerIds: result.providerMessageIds };
      } catch (err) {
        if (!(err instanceof ProviderError)) {
          // Our own bug or a broken answer: the request may have reached the carrier.
          logger.error({ err, messageId: c.id }, 'campaign submit failed unexpectedly');
          return { id: c.id, parts: c.parts, kind: 'unknown', reason: 'INTERNAL' };
        }
        if (err.options.sentUnknown) return { id: c.id, parts: c.parts, kind: 'unknown', reason: err.reason };
        if (!err.options.retryable) return { id: c.id, parts: c.parts, kind: 'failed', reason: err.reason };
        if (attempt >= SUBMIT_ATTEMPTS)
          return { id: c.id, parts: c.parts, kind: 'retry', reason: err.reason, message: err.message };
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  }

  /** Sends one claimed batch and settles it. Returns the outcomes. */
  async function sendBatch(
    row: CampaignRow,
    provider: ChannelProvider,
    claimed: ClaimedRecipient[],
  ): Promise<Outcome[]> {
    const workers = deps.liveWorkers();
    const campaignPacer = pacers.get(`campaign:${row.id}`, row.maxRate ? row.maxRate / workers : null);
    const tps = provider.health().tpsLimit;
    const carrierPacer = pacers.get(`provider:${provider.name}`, tps ? tps / workers : null);
    const optedOut = await timed('optOutsMs', () =>
      deps.optOuts.optedOut(
        row.userId,
        claimed.map((c) => c.toPhone),
      ),
    );
    const signed = new Map<string, Promise<string>>();
    const sign = (audioId: string) => {
      if (!signed.has(audioId)) signed.set(audioId, deps.audioUrl(row.userId, audioId));
      return signed.get(audioId)!;
    };
    const inflight = deps.store.inflightBatch();
    try {
      const outcomes = await timed('submitMs', () =>
        Promise.all(
          claimed.map(async (c): Promise<Outcome> => {
            if (optedOut.has(c.toPhone)) return { id: c.id, parts: c.parts, kind: 'opted_out', reason: 'OPTED_OUT' };
            await campaignPacer?.take();
            await carrierPacer?.take();
            return submitOne(provider, row.channel, c, await withAudioUrl(c.content, sign), inflight);
          }),
        ),
      );
      await timed('settleMs', () => settle(row, provider.name, outcomes, inflight));
      spent.batches++;
      return outcomes;
    } catch (err) {
      inflight.failed(err);
      throw err;
    }
  }

  /** Every outcome of a batch and its credits, in one transaction. */
  async function settle(
    row: CampaignRow,
    providerName: string,
    outcomes: Outcome[],
    inflight: InflightBatch,
  ): Promise<void> {
    const now = clock.now();
    const sent = outcomes.filter((o): o is Extract<Outcome, { kind: 'sent' }> => o.kind === 'sent');
    const settled = outcomes.filter(
      (o): o is Extract<Outcome, { kind: 'failed' | 'unknown' | 'opted_out' }> =>
        o.kind === 'failed' || o.kind === 'unknown' || o.kind === 'opted_out',
    );
    const sum = (list: Outcome[]) => list.reduce((n, o) => n + o.parts, 0);
    const reference = { type: 'campaign', id: row.id };
    const arrived = inflight.take();
    const stored = await deps.db.transaction(async (tx) => {
      const applied = await deps.store.recordSubmittedBatch(
        sent.map((o) => ({ messageId: o.id, provider: providerName, providerIds: o.providerIds })),
        now,
        tx,
        arrived,
      );
      const moved = await deps.store.settleBatch(
        settled.map((o) => ({ messageId: o.id, status: o.kind, reason: o.reason })),
        now,
        tx,
      );
      // Credits for what this settle moved (the supervisor may have cut a very late one off already).
      const ended = settled.filter((o) => moved.has(o.id));
      const used = sum(sent) + sum(ended.filter((o) => o.kind === 'unknown'));
      const released = sum(ended.filter((o) => o.kind !== 'unknown'));
      // The campaign row before the balance, the order of every campaign transaction (start,
      // cancel, completion lock the campaign first): the other order deadlocked with a cancel.
      await repo.addCredits(tx, row.id, { used, released });
      if (used > 0)
        await deps.ledger.capture({ userId: row.userId, type: row.creditType, amount: used, reference, tx });
      if (released > 0)
        await deps.ledger.release({ userId: row.userId, type: row.creditType, amount: released, reference, tx });
      return applied;
    });
    inflight.settled(stored.arrived);
    await repo.unclaim(outcomes.filter((o) => o.kind === 'retry').map((o) => o.id));
    for (const { event, messageId } of stored.followUps) await deps.afterReceipt(event, messageId);
  }

  /** Counts a batch the carrier would not take at all; pauses the campaign when it keeps happening. */
  async function watchCarrier(row: CampaignRow, outcomes: Outcome[]): Promise<'ok' | 'backoff' | 'paused'> {
    const carrierDown = outcomes.filter((o) => o.kind === 'retry');
    const delivered = outcomes.some((o) => o.kind === 'sent');
    if (delivered || carrierDown.length === 0) {
      if (row.providerFailures > 0) await repo.noteProviderFailure(row.id, false);
      return 'ok';
    }
    const failures = await repo.noteProviderFailure(row.id, true);
    if (failures < PROVIDER_FAILURES_TO_PAUSE) return 'backoff';
    const last = carrierDown[carrierDown.length - 1] as Extract<Outcome, { kind: 'retry' }>;
    await deps.lifecycle.pauseForProvider(row.id, `${last.reason}: ${last.message}`);
    return 'paused';
  }

  /**
   * Works on one campaign until nothing is left to claim, it stops being RUNNING, its window
   * closes (the supervisor queues it again when it opens), or its time slice ends.
   */
  async function dispatchLoop(campaignId: string, signal?: AbortSignal): Promise<void> {
    const began = Date.now();
    for (;;) {
      // A stopping process ends its loops after their batch; the campaign's next dispatcher goes on.
      if (signal?.aborted || stopping) return;
      const row = await repo.findById(campaignId);
      if (row?.status !== 'RUNNING') {
        await deps.lifecycle.finishIfDone(campaignId);
        return;
      }
      if (!isInWindow(row.window, clock.now())) return;
      // The campaign's heartbeat (the supervisor adopts campaigns nobody beats for): every few
      // seconds, not every batch, since it waits on the campaign row that each settle updates.
      if (Date.now() - (lastBeat.get(campaignId) ?? 0) > BEAT_EVERY_MS) {
        lastBeat.set(campaignId, Date.now());
        await repo.beat(campaignId);
      }
      const provider = deps.providers.forChannel(row.channel);
      const perSecond = row.maxRate ? row.maxRate / deps.liveWorkers() : null;
      // A slow campaign claims a quarter second's worth across this process's loops, so a pause or
      // cancel takes effect soon and a crash leaves few recipients whose fate is unknown.
      const loops = local.get(campaignId)?.size ?? 1;
      const limit = perSecond ? Math.max(1, Math.min(batchSize, Math.ceil(perSecond / 4 / loops))) : batchSize;
      const claimed = await timed('claimMs', () => repo.claim(campaignId, deps.workerId, limit));
      if (claimed.length === 0) {
        await deps.lifecycle.finishIfDone(campaignId);
        return;
      }
      const outcomes = await sendBatch(row, provider, claimed);
      const carrier = await watchCarrier(row, outcomes);
      if (carrier === 'paused') return;
      if (carrier === 'backoff') await new Promise((resolve) => setTimeout(resolve, 1000));
      if (Date.now() - began > SLICE_MS) {
        await deps.jobs.send(DISPATCH_QUEUE, { campaignId });
        return;
      }
    }
  }

  return {
    /** Where this process's dispatch time went so far (milliseconds per phase, summed over loops). */
    stats: () => ({ ...spent }),

    /** This process is stopping: every loop ends after the batch in hand; resolves when they have. */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.allSettled([...local.values()].flatMap((loops) => [...loops]));
    },

    /**
     * Makes this process help with a RUNNING campaign it is not working on yet (the supervisor
     * calls it): with `npm run worker` processes, every live process shares every campaign.
     */
    join(campaignId: string): void {
      if (stopping || local.has(campaignId)) return;
      void this.run(campaignId).catch((err: unknown) => logger.error({ err, campaignId }, 'campaign dispatch failed'));
    },

    run(campaignId: string, signal?: AbortSignal): Promise<void> {
      const loops = local.get(campaignId) ?? new Set<Promise<void>>();
      local.set(campaignId, loops);
      const t0 = performance.now();
      const loop = dispatchLoop(campaignId, signal).finally(() => {
        spent.loopMs += performance.now() - t0;
        loops.delete(loop);
        if (loops.size === 0) {
          local.delete(campaignId);
          lastBeat.delete(campaignId);
        }
      });
      loops.add(loop);
      return loop;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
