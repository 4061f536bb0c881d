/**
 * Keeps campaigns moving whatever happened to the processes, every few seconds in each process
 * that works jobs: beats for this process; settles recipients left `submitting` by a process that
 * died (`unknown`, credits captured: the carrier may have sent them; never re-sent); starts
 * scheduled campaigns whose time came, also long past after downtime; queues the work of RUNNING
 * campaigns no dispatcher is working on (a dead worker's, or one whose window just opened); joins
 * this process to every RUNNING campaign (so `npm run worker` processes share each one); ends
 * campaigns with nothing left.
 */
import { CHANNEL_CREDIT_TYPE, type Channel, isInWindow } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import { type LiveWorker, type ProcessShare, viewOf } from '../../platform/pacing/process-share.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { RecipientStore } from './campaigns.dispatcher.ts';
import type { CampaignLifecycle } from './campaigns.lifecycle.ts';
import { type CampaignsRepository, WORKER_DEAD_AFTER_SECONDS } from './campaigns.repository.ts';

export type SupervisorDeps = {
  db: Database;
  repo: CampaignsRepository;
  store: Pick<RecipientStore, 'settleBatch'>;
  ledger: Pick<LedgerService, 'capture'>;
  lifecycle: Pick<CampaignLifecycle, 'startScheduled' | 'finishIfDone' | 'queueDispatch'>;
  /** This process's dispatcher: it joins every RUNNING campaign it is not working on yet. */
  dispatcher: { join(campaignId: string): void };
  /** Receipts that lost the race with their submit (or outlived a crash) applied once their id is known. */
  sweepEarlyReceipts: () => Promise<number>;
  workerId: string;
  /** PGlite lives in this one process: every other worker on record is a previous run, dead. */
  singleProcess: boolean;
  /** This process's share of the carriers' and campaigns' rates: kept current by each pass. */
  share: ProcessShare;
  /** The carrier accounts this process sends through (startProviders' keys): each one's rate is shared among the processes on it. */
  carriers?: readonly string[];
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
};

export function createCampaignSupervisor(deps: SupervisorDeps) {
  const { repo, clock, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const intervalMs = deps.intervalMs ?? 5_000;

  /**
   * One campaign's step of a pass: an error is logged with the campaign and the pass goes on
   * with the others (one campaign's broken settle must not stop every user's campaigns).
   */
  async function isolated(step: string, campaignId: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      logger.error({ err, campaignId, step }, 'campaign supervisor step failed for one campaign');
    }
  }

  /** Recipients cut off mid-send: `unknown` with their credits captured, per campaign in one transaction. */
  async function settleCutOff(): Promise<number> {
    const rows = await repo.cutOff();
    const byCampaign = new Map<string, typeof rows>();
    for (const r of rows) byCampaign.set(r.campaignId, [...(byCampaign.get(r.campaignId) ?? []), r]);
    for (const [campaignId, list] of byCampaign) await isolated('cut-off', campaignId, () => cutOff(campaignId, list));
    return rows.length;
  }

  async function cutOff(campaignId: string, list: Awaited<ReturnType<typeof repo.cutOff>>): Promise<void> {
    const settled = await deps.db.transaction(async (tx) => {
      // The campaign row first, as every campaign transaction (a live batch's settle locks it first too).
      const campaign = await repo.lockById(campaignId, tx);
      if (!campaign) return 0;
      // Only rows still cut off now (a batch may have settled them since the list was read).
      const stillCut = await repo.cutOffIn(
        list.map((r) => r.id),
        tx,
      );
      const moved = await deps.store.settleBatch(
        list
          .filter((r) => stillCut.has(r.id))
          .map((r) => ({ messageId: r.id, status: 'unknown' as const, reason: 'SUBMIT_INTERRUPTED' })),
        clock.now(),
        tx,
      );
      // Only what this settled is paid: a slow worker may have settled some meanwhile.
      const parts = list.filter((r) => moved.has(r.id)).reduce((n, r) => n + r.parts, 0);
      if (parts === 0) return 0;
      // The campaign row before the balance (the order of every campaign transaction).
      await repo.addCredits(campaignId, { used: parts }, tx);
      await deps.ledger.capture({
        userId: campaign.userId,
        type: CHANNEL_CREDIT_TYPE[campaign.channel as Channel],
        amount: parts,
        reference: { type: 'campaign', id: campaignId },
        tx,
      });
      return moved.size;
    });
    if (settled > 0)
      logger.warn(
        { campaignId, recipients: settled },
        'recipients cut off mid-send by a stopped process: unknown, not re-sent',
      );
  }

  async function tick(): Promise<void> {
    await repo.workerBeat(deps.workerId, process.pid, deps.carriers);
    await countProcesses();
    await settleCutOff();
    const now = clock.now();
    for (const row of await repo.due(now)) await isolated('start', row.id, () => deps.lifecycle.startScheduled(row));
    for (const row of await repo.orphaned(WORKER_DEAD_AFTER_SECONDS)) {
      if (!isInWindow(row.window, now)) continue;
      await isolated('adopt', row.id, async () => {
        if (!(await repo.pending(row.id)).queued) return;
        if (await repo.adoptOrphan(row.id, WORKER_DEAD_AFTER_SECONDS)) {
          await deps.lifecycle.queueDispatch(row.id);
          logger.info({ campaignId: row.id }, 'campaign with no dispatcher: work queued again');
        }
      });
    }
    for (const row of await repo.runningWithQueued()) {
      if (isInWindow(row.window, now)) deps.dispatcher.join(row.id);
    }
    for (const row of await repo.unfinished())
      await isolated('finish', row.id, () => deps.lifecycle.finishIfDone(row.id));
    await deps.sweepEarlyReceipts();
  }

  /**
   * Takes this process's share of the rates from the live processes, then records that it counted
   * them: a process that joined since may start sending (process-share.ts). A process that missed
   * three beats is not waited for.
   */
  async function countProcesses(): Promise<void> {
    const { at, workers } = await repo.liveWorkers();
    const view = (among: LiveWorker[]) => viewOf(among, deps.workerId, at.getTime(), 3 * intervalMs);
    const byCarrier = new Map(
      (deps.carriers ?? []).map((key) => [key, view(workers.filter((w) => w.carriers.includes(key)))]),
    );
    deps.share.update(view(workers), byCarrier);
    await repo.viewed(deps.workerId, at);
  }

  /** One pass at a time; an error is logged and the next pass tries again. */
  function pass(): Promise<void> {
    running ??= tick()
      .catch((err: unknown) => logger.error({ err }, 'campaign supervisor pass failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    async start(): Promise<void> {
      if (deps.singleProcess) {
        await repo.workerBeat(deps.workerId, process.pid, deps.carriers);
        await repo.forgetOtherWorkers(deps.workerId);
      }
      await pass();
      timer = setInterval(() => void pass(), intervalMs);
      timer.unref();
    },
    /** Runs a pass now (tests, and right after a restart). */
    pass,
    /** The share of the rates this supervisor keeps current (the dispatcher's and the providers'). */
    share: deps.share,
    /** Dispatching processes alive at the last pass (this one included). */
    liveWorkers: () => deps.share.view().workers,
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await running;
      await repo.forgetWorker(deps.workerId).catch(() => {});
    },
  };
}

export type CampaignSupervisor = ReturnType<typeof createCampaignSupervisor>;
