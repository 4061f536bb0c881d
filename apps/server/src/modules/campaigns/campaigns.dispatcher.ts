/**
 * The dispatch loop (the `campaigns.dispatch` job): claims a few seconds' worth of a RUNNING
 * campaign's queued recipients (→ `submitting`, SKIP LOCKED, so any number of dispatchers in any
 * number of processes share a campaign without ever claiming a recipient twice), hands them to
 * the channel's provider at the campaign's and the carrier's rate, then settles them
 * (campaigns.settle.ts: every outcome and its credits in ONE transaction).
 *
 * Stopping is part of sending: every campaign this process works on has a stop signal that
 * fires when this process pauses or cancels it (the lifecycle calls `halt`), when its status is
 * seen to be anything but RUNNING (re-read every second while it is worked on: another
 * process's pause), or when this process stops. The signal ends the paces' waits, is checked
 * right before each recipient is handed over, and the providers drop what they have not
 * written yet; whatever was not handed over goes back (settle), so after a pause or cancel
 * nothing more reaches the carrier than what was already on the wire.
 */
import { setMaxListeners } from 'node:events';
import { isInWindow } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ProcessShare } from '../../platform/pacing/process-share.ts';
import type { ChannelProvider, InflightBatch, ProviderRegistry, StatusEvent } from '../channels/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { OptOutsService } from '../opt-outs/index.ts';
import { createHandOver, sleepUnlessStopped } from './campaigns.handover.ts';
import { dispatchQueue } from './campaigns.jobs.ts';
import type { CampaignLifecycle } from './campaigns.lifecycle.ts';
import type { CampaignsRepository, ClaimedRecipient } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import { MAX_LOOPS_PER_CAMPAIGN } from './campaigns.service-deps.ts';
import { createSettler, type Outcome, type RecipientStore } from './campaigns.settle.ts';
import { createPacers } from './rate-pacer.ts';

export type { RecipientStore } from './campaigns.settle.ts';

export type DispatcherDeps = {
  db: Database;
  repo: CampaignsRepository;
  store: RecipientStore;
  ledger: Pick<LedgerService, 'capture' | 'release'>;
  providers: Pick<ProviderRegistry, 'forChannel' | 'shareOf'>;
  optOuts: Pick<OptOutsService, 'optedOut'>;
  audioUrl: (userId: string, audioId: string) => Promise<string>;
  lifecycle: Pick<CampaignLifecycle, 'finishIfDone' | 'pauseForProvider'>;
  /** Follow-ups of receipts that had arrived before their submit was stored (URA digits). */
  afterReceipt: (event: StatusEvent, messageId: string) => Promise<void>;
  jobs: Pick<Jobs, 'send'>;
  /** This process's share of the rates every dispatching process shares (the supervisor keeps it current). */
  share: ProcessShare;
  workerId: string;
  clock: Clock;
  logger: Logger;
  batchSize?: number;
  /** How often a worked-on campaign's status is re-read (another process's pause or cancel is seen this soon). */
  watchEveryMs?: number;
};

/** A carrier that answered nothing but "try later" this many batches in a row pauses the campaign. */
const PROVIDER_FAILURES_TO_PAUSE = 3;
/** A dispatch loop hands over to a fresh job after this long, between two recipients (pg-boss expires a job at 15 min). */
const SLICE_MS = 5 * 60_000;
/**
 * The campaign's loops together claim this many seconds of sending at the campaign's and the
 * carrier's rate: a stop returns what was not handed over, but a crash leaves every claimed
 * recipient `unknown` (charged, maybe sent), so claims stay small.
 */
const CLAIM_SECONDS = 0.5;
/** How often a working process refreshes a campaign's heartbeat (the supervisor's dead-worker limit is 30 s). */
const BEAT_EVERY_MS = 5_000;
/** How often the recipients of batches still out get their `updated_at` refreshed (the cut-off limit is 10 min). */
const TOUCH_EVERY_MS = 60_000;
/**
 * A batch out longer than this is not refreshed any more: its loop hung (every provider call has
 * its own timeout, and a claim holds seconds of work), so the supervisor's ten-minute cut-off
 * settles it as `unknown`; should the batch return after all, its settle moves no credit twice.
 */
const HUNG_BATCH_MS = 5 * 60_000;

/** The loops of one campaign in this process and their shared stop signal. */
type Crew = { stop: AbortController; loops: Set<Promise<void>>; watch: NodeJS.Timeout; lastBeat: number };

export function createDispatcher(deps: DispatcherDeps) {
  const { repo, clock, logger } = deps;
  const batchSize = deps.batchSize ?? 500;
  const pacers = createPacers();
  /** This process's share of the provider's carrier rate (among the processes on its account). */
  const carrierShare = (provider: ChannelProvider) => deps.providers.shareOf(provider.name) ?? deps.share;
  const settler = createSettler(deps);
  const handOver = createHandOver({ ...deps, timeOptOuts: (work) => timed('optOutsMs', work) });
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
  /** Each campaign's current crew (a halted crew leaves the map; its loops finish on their own). */
  const crews = new Map<string, Crew>();
  const allLoops = new Set<Promise<void>>();
  /** Batches handed to a provider and not settled yet: their recipients' ids and when they went out. */
  const out = new Map<symbol, { ids: string[]; since: number }>();
  const toucher = setInterval(() => void touchBatchesOut(), TOUCH_EVERY_MS);
  toucher.unref();

  async function touchBatchesOut(): Promise<void> {
    const now = Date.now();
    const ids = [...out.values()].filter((b) => now - b.since < HUNG_BATCH_MS).flatMap((b) => b.ids);
    await repo.touchClaimed(ids, deps.workerId).catch((err: unknown) => logger.warn({ err }, 'claims not refreshed'));
  }

  function halt(campaignId: string): void {
    const crew = crews.get(campaignId);
    if (!crew) return;
    crews.delete(campaignId);
    clearInterval(crew.watch);
    crew.stop.abort();
  }

  function crewOf(campaignId: string): Crew {
    const existing = crews.get(campaignId);
    if (existing) return existing;
    const crew: Crew = {
      stop: new AbortController(),
      loops: new Set(),
      lastBeat: 0,
      // Another process's pause or cancel (or this one's, via the supervisor) is seen within a second.
      watch: setInterval(() => void watch(campaignId, crew), deps.watchEveryMs ?? 1000),
    };
    crew.watch.unref();
    crews.set(campaignId, crew);
    return crew;
  }

  async function watch(campaignId: string, crew: Crew): Promise<void> {
    try {
      const row = await repo.findById(campaignId);
      if (crews.get(campaignId) !== crew) return;
      if (row?.status !== 'RUNNING') return halt(campaignId);
      // Stryker disable next-line EqualityOperator: equivalent: a beat at exactly 5 s or a millisecond later is the same
      if (Date.now() - crew.lastBeat > BEAT_EVERY_MS) {
        crew.lastBeat = Date.now();
        await repo.beat(campaignId);
      }
    } catch (err) {
      logger.warn({ err, campaignId }, 'campaign status not read');
    }
  }

  /** Hands one claimed batch to the provider (until `signal` stops it) and settles it. */
  async function sendBatch(
    row: CampaignRow,
    provider: ChannelProvider,
    claimed: ClaimedRecipient[],
    signal: AbortSignal,
  ): Promise<Outcome[]> {
    const campaignPacer = pacers.get(`campaign:${row.id}`, row.maxRate, deps.share);
    const carrierPacer = pacers.get(`provider:${provider.name}`, provider.health().tpsLimit, carrierShare(provider));
    const inflight = deps.store.inflightBatch();
    const key = Symbol(row.id);
    out.set(key, { ids: claimed.map((c) => c.id), since: Date.now() });
    try {
      const outcomes = await timed('submitMs', () =>
        handOver(row, provider, claimed, { signal, inflight, paces: [campaignPacer, carrierPacer] }),
      );
      const settled = await timed('settleMs', () => settleWithRetries(row, provider.name, outcomes, inflight));
      spent.batches++;
      for (const { event, messageId } of settled.followUps) await deps.afterReceipt(event, messageId);
      return outcomes;
    } catch (err) {
      inflight.failed(err);
      throw err;
    } finally {
      out.delete(key);
    }
  }

  /** A settle that failed (the database was unreachable a moment) is tried again before giving up. */
  async function settleWithRetries(
    row: CampaignRow,
    providerName: string,
    outcomes: Outcome[],
    inflight: InflightBatch,
  ) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await settler.settle(row, providerName, outcomes, inflight, clock.now());
      } catch (err) {
        if (attempt >= 3) throw err;
        logger.warn({ err, campaignId: row.id, attempt }, 'batch settle failed: trying again');
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }

  /** Counts a batch nothing of which was taken; pauses the campaign when it keeps happening. */
  async function watchCarrier(row: CampaignRow, outcomes: Outcome[]): Promise<'ok' | 'backoff' | 'paused'> {
    const carrierDown = outcomes.filter((o): o is Extract<Outcome, { kind: 'retry' }> => o.kind === 'retry');
    const delivered = outcomes.some((o) => o.kind === 'sent');
    if (delivered || carrierDown.length === 0) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when always true: a counter at 0 reset to 0 (the check only saves a write); the reset itself is tested
      if (row.providerFailures > 0) await repo.noteProviderFailure(row.id, false);
      // Stryker disable next-line StringLiteral: equivalent: the loop only tells 'paused' and 'backoff' apart
      return 'ok';
    }
    const failures = await repo.noteProviderFailure(row.id, true);
    if (failures < PROVIDER_FAILURES_TO_PAUSE) return 'backoff';
    const last = carrierDown[carrierDown.length - 1]!;
    await deps.lifecycle.pauseForProvider(row.id, `${last.reason}: ${last.message}`);
    // Stryker disable next-line StringLiteral: equivalent: a loop that goes on reads the campaign PAUSED and ends at once
    return 'paused';
  }

  /**
   * How many recipients one claim takes: half a second at this process's share of the slower of
   * the campaign's and the carrier's rate; 0 while that share is 0 (this process has just joined).
   */
  function claimSize(row: CampaignRow, provider: ChannelProvider): number {
    const tps = provider.health().tpsLimit;
    const shares = [
      row.maxRate ? deps.share.of(row.maxRate) : null,
      tps ? carrierShare(provider).of(tps) : null,
    ].filter((r): r is number => r !== null);
    // Stryker disable next-line ConditionalExpression: equivalent when never taken: Math.min() of no rates is Infinity, which the clamp below makes batchSize
    if (shares.length === 0) return batchSize;
    const perSecond = Math.min(...shares);
    if (perSecond <= 0) return 0;
    // Divided by the most loops a campaign has here, not those running now (the first loop would take it all).
    return Math.max(1, Math.min(batchSize, Math.ceil((perSecond * CLAIM_SECONDS) / MAX_LOOPS_PER_CAMPAIGN)));
  }

  /**
   * Works on one campaign until nothing is left to claim, it stops being RUNNING, its window
   * closes (the supervisor queues it again when it opens), its stop signal fires, or its time
   * slice ends (then a fresh job goes on).
   */
  async function dispatchLoop(campaignId: string, crew: Crew, signal: AbortSignal, slice: AbortSignal): Promise<void> {
    for (;;) {
      // Stryker disable next-line ConditionalExpression: equivalent: stop() halts every crew first, so a stopping process's loop ends at the signal check below after one read
      if (stopping) return;
      const row = await repo.findById(campaignId);
      if (row?.status !== 'RUNNING') {
        await deps.lifecycle.finishIfDone(campaignId);
        return;
      }
      if (signal.aborted) {
        if (slice.aborted && !crew.stop.signal.aborted) await deps.jobs.send(dispatchQueue, { campaignId });
        return;
      }
      if (!isInWindow(row.window, clock.now())) return;
      // Stryker disable next-line EqualityOperator: equivalent: a beat at exactly 5 s or a millisecond later is the same
      if (Date.now() - crew.lastBeat > BEAT_EVERY_MS) {
        crew.lastBeat = Date.now();
        await repo.beat(campaignId);
      }
      const provider = deps.providers.forChannel(row.channel);
      const limit = claimSize(row, provider);
      if (limit === 0) {
        // No share of the rate yet: the other processes have not counted this one.
        await sleepUnlessStopped(1000, signal);
        continue;
      }
      const claimed = await timed('claimMs', () => repo.claim(campaignId, deps.workerId, limit));
      if (claimed.length === 0) {
        await deps.lifecycle.finishIfDone(campaignId);
        return;
      }
      const outcomes = await sendBatch(row, provider, claimed, signal);
      const carrier = await watchCarrier(row, outcomes);
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: a loop that goes on reads the campaign PAUSED and ends at once (finishIfDone leaves a PAUSED campaign be)
      if (carrier === 'paused') return;
      if (carrier === 'backoff') await sleepUnlessStopped(1000, signal);
    }
  }

  return {
    /** Where this process's dispatch time went so far (milliseconds per phase, summed over loops). */
    stats: () => ({ ...spent }),

    /**
     * This process is stopping: every campaign's stop signal fires (paces stop waiting, nothing
     * more is handed over), what is on the wire is answered and settled, the rest goes back to
     * `queued`. Resolves when every loop has ended: within seconds, not whole batches.
     */
    async stop(): Promise<void> {
      stopping = true;
      for (const campaignId of [...crews.keys()]) halt(campaignId);
      clearInterval(toucher);
      await Promise.allSettled([...allLoops]);
    },

    /** This process paused or canceled the campaign: its loops here stop handing recipients over now. */
    halt,

    /** Refreshes the rows of the batches out now (every minute on its own; tests call it). */
    refreshClaims: touchBatchesOut,

    /**
     * Makes this process help with a RUNNING campaign it is not working on yet (the supervisor
     * calls it): with `npm run worker` processes, every live process shares every campaign.
     */
    join(campaignId: string): void {
      if (stopping || crews.has(campaignId)) return;
      void this.run(campaignId).catch((err: unknown) => logger.error({ err, campaignId }, 'campaign dispatch failed'));
    },

    /** One dispatch loop on the campaign (a job's; `jobSignal` is pg-boss's for it), unless it has its share already. */
    async run(campaignId: string, jobSignal?: AbortSignal): Promise<void> {
      if (stopping) return;
      const crew = crewOf(campaignId);
      if (crew.loops.size >= MAX_LOOPS_PER_CAMPAIGN) return;
      const slice = AbortSignal.timeout(SLICE_MS);
      const signal = AbortSignal.any([crew.stop.signal, slice, ...(jobSignal ? [jobSignal] : [])]);
      // Every recipient waiting for a pace or a window slot listens to it: hundreds is normal, not a leak.
      setMaxListeners(0, signal);
      const t0 = performance.now();
      const loop = dispatchLoop(campaignId, crew, signal, slice).finally(() => {
        spent.loopMs += performance.now() - t0;
        crew.loops.delete(loop);
        allLoops.delete(loop);
        if (crew.loops.size === 0 && crews.get(campaignId) === crew) {
          crews.delete(campaignId);
          clearInterval(crew.watch);
        }
      });
      crew.loops.add(loop);
      allLoops.add(loop);
      return loop;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
