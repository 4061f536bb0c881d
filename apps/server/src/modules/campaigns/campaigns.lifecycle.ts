/**
 * A campaign's moves: start (credits reserved, recipients snapshotted and work queued, in one
 * transaction), pause, resume, cancel (unsent credits released at once), and the end. Every move
 * is a conditional update from the states it may leave, so two clicks, a dispatcher and the
 * supervisor never disagree about where a campaign is.
 */
import type { Campaign, StartCampaignRequest } from '@ecoa/shared';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { snapshotAudience } from './campaigns.audience.ts';
import type { ContentProblem } from './campaigns.content.ts';
import { dispatchQueue } from './campaigns.jobs.ts';
import { scheduleForStart } from './campaigns.schedule.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import {
  type CampaignStatusEvent,
  type CampaignsServiceDeps,
  MAX_LOOPS_PER_CAMPAIGN,
} from './campaigns.service-deps.ts';

type LifecycleDeps = CampaignsServiceDeps & { problemsOf: (row: CampaignRow) => Promise<ContentProblem[]> };

const reference = (id: string) => ({ type: 'campaign', id });

/** The audio a voice or URA campaign plays, if any. */
export function audioOf(row: Pick<CampaignRow, 'channel' | 'content'>): string | undefined {
  if (row.channel === 'voice_torpedo') return row.content.audioId ?? undefined;
  if (row.channel === 'ura') return row.content.menu?.audioId ?? undefined;
  return undefined;
}

/**
 * Reserves a campaign's (or an API batch's) credits in `tx`; a shortfall is refused with the
 * exact number missing (`INSUFFICIENT_BALANCE` with `shortfall`), nothing reserved.
 */
export async function reserveForCampaign(
  ledger: Pick<CampaignsServiceDeps['ledger'], 'reserve'>,
  r: { userId: string; type: CampaignRow['creditType']; amount: number; campaignId: string; tx: Tx },
): Promise<void> {
  try {
    await ledger.reserve({
      userId: r.userId,
      type: r.type,
      amount: r.amount,
      reference: reference(r.campaignId),
      tx: r.tx,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE') {
      const { available = 0 } = (err.details ?? {}) as { available?: number };
      throw new AppError('INSUFFICIENT_BALANCE', {
        type: r.type,
        available,
        requested: r.amount,
        shortfall: r.amount - available,
      });
    }
    throw err;
  }
}

export function createCampaignLifecycle(deps: LifecycleDeps) {
  const { db, repo, ledger, clock, logger } = deps;

  /**
   * Queues the dispatch jobs of a campaign that is (now) RUNNING: in `tx` when given, so they exist
   * if it commits (`{ tx }` as `jobs.send` takes it, ADR 007).
   */
  async function queueDispatch(
    campaignId: string,
    { loops = MAX_LOOPS_PER_CAMPAIGN, tx }: { loops?: number; tx?: Tx } = {},
  ): Promise<void> {
    // They share the recipients: more processes, more jobs; never fewer than a process's loops
    // (`loops`: fewer for an API request of one message, which one loop sends).
    const jobs = Math.max(loops, deps.liveWorkers());
    for (let i = 0; i < jobs; i++) await deps.jobs.send(dispatchQueue, { campaignId }, tx ? { tx } : {});
  }

  /** The customer's `campaign.status` webhook, in the move's transaction, with the recipients' counts. */
  async function announce(row: CampaignRow, status: CampaignStatusEvent, tx: DbOrTx): Promise<void> {
    const tally = (await deps.tallies.campaigns([row.id], tx)).get(row.id)!;
    await deps.onStatus(row, status, tally.counts, tx);
  }

  /** Credits back to available for `parts` not sent, mirrored on the campaign. */
  async function releaseParts(row: CampaignRow, parts: number, tx: Tx): Promise<void> {
    if (parts <= 0) return;
    await ledger.release({ userId: row.userId, type: row.creditType, amount: parts, reference: reference(row.id), tx });
    await repo.addCredits(row.id, { released: parts }, tx);
  }

  /** The campaign to move, locked: the owner's own (another's is not found), or any for an administrator. */
  async function lockToMove(campaignId: string, owner: string | undefined, tx: Tx): Promise<CampaignRow> {
    const row = await (owner ? repo.lock(owner, campaignId, tx) : repo.lockById(campaignId, tx));
    if (!row) throw new AppError('CAMPAIGN_NOT_FOUND');
    return row;
  }

  /** An administrator's move, in the audit log in the move's transaction (an owner's own is not). */
  async function auditMove(actorId: string | undefined, row: CampaignRow, to: 'PAUSED' | 'CANCELED', tx: Tx) {
    if (!actorId) return;
    const action = to === 'PAUSED' ? 'campaign.pause' : 'campaign.cancel';
    await deps.audit({ actorId, subjectId: row.id, action, changes: { status: { from: row.status, to } } }, tx);
  }

  async function pause(
    campaignId: string,
    owner: string | undefined,
    reason: { code: string | null },
    actorId?: string,
  ): Promise<CampaignRow> {
    const paused = await db.transaction(async (tx) => {
      const row = await lockToMove(campaignId, owner, tx);
      const updated = await repo.transition(
        campaignId,
        ['RUNNING', 'SCHEDULED'],
        { status: 'PAUSED', statusReason: reason.code, statusDetail: null, updatedAt: clock.now() },
        tx,
      );
      if (!updated) throw new AppError('CAMPAIGN_NOT_RUNNING');
      await announce(updated, 'paused', tx);
      await auditMove(actorId, row, 'PAUSED', tx);
      return updated;
    });
    // Before the answer: nothing more of it is handed to the carrier from this process.
    deps.halt(campaignId);
    return paused;
  }

  async function cancel(campaignId: string, owner: string | undefined, actorId?: string): Promise<CampaignRow> {
    const now = clock.now();
    const canceled = await db.transaction(async (tx) => {
      const row = await lockToMove(campaignId, owner, tx);
      const updated = await repo.transition(
        campaignId,
        ['DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED'],
        { status: 'CANCELED', updatedAt: now },
        tx,
      );
      if (!updated) throw new AppError('CAMPAIGN_FINISHED');
      // What was not sent comes back now; what a dispatcher is sending right now settles as it returns.
      await releaseParts(row, await repo.cancelQueued(campaignId, now, tx), tx);
      if (!(await repo.pending(campaignId, tx)).submitting) await repo.update(campaignId, { finishedAt: now }, tx);
      await auditMove(actorId, row, 'CANCELED', tx);
      const after = (await repo.findById(campaignId, tx))!;
      await announce(after, 'canceled', tx);
      return after;
    });
    // Before the answer: nothing more of it is handed to the carrier from this process; what a
    // loop had claimed and not handed over is released as `canceled` by its settle.
    deps.halt(campaignId);
    return canceled;
  }

  return {
    queueDispatch,
    releaseParts,

    /**
     * Starts a draft, in one transaction: every recipient snapshotted as a `queued` message with
     * its rendered content and parts, the credits reserved through the ledger (refused with the
     * exact shortfall), the dispatch jobs queued. A future `schedule` makes it SCHEDULED instead;
     * a schedule chosen but missing or past is refused before anything is reserved.
     */
    async start(userId: string, id: string, choice?: StartCampaignRequest): Promise<CampaignRow> {
      const draft = await repo.findOwned(userId, id);
      if (!draft) throw new AppError('CAMPAIGN_NOT_FOUND');
      if (draft.status !== 'DRAFT') throw new AppError('CAMPAIGN_ALREADY_STARTED');
      scheduleForStart(draft.scheduledAt, choice, clock.now());
      const problems = await deps.problemsOf(draft);
      if (problems.length > 0) throw new AppError('CAMPAIGN_PROBLEM', { problems }, { problem: problems[0]!.code });
      const provider = deps.providers.forChannel(draft.channel).name;
      const audience = await repo.audienceCounts(userId, draft.listIds);
      const now = clock.now();

      const started = await db.transaction(async (tx) => {
        const row = await repo.lock(userId, id, tx);
        if (row?.status !== 'DRAFT') throw new AppError('CAMPAIGN_ALREADY_STARTED');
        const scheduledAt = scheduleForStart(row.scheduledAt, choice, now);
        // The audio is checked again under its lock: deleted meanwhile, the start is refused;
        // deleted after, the delete sees this campaign play it and is refused.
        const audioId = audioOf(row);
        if (audioId && !(await deps.lockAudio(userId, audioId, tx)))
          throw new AppError('CAMPAIGN_PROBLEM', undefined, { problem: 'AUDIO_NOT_FOUND' });
        const { total, parts } = await snapshotAudience(repo, row, provider, now, deps.publicUrl, tx);
        if (total === 0) throw new AppError('CAMPAIGN_PROBLEM', undefined, { problem: 'NO_RECIPIENTS' });
        await reserveForCampaign(ledger, { userId, type: row.creditType, amount: parts, campaignId: id, tx });
        // Stryker disable next-line EqualityOperator: equivalent but for one millisecond: a schedule due exactly now is started by the supervisor's next pass (`scheduled_at <= now`) instead of by this start
        const scheduled = scheduledAt !== null && scheduledAt > now;
        const updated = await repo.update(
          id,
          {
            status: scheduled ? 'SCHEDULED' : 'RUNNING',
            scheduledAt,
            total,
            creditsReserved: parts,
            excluded: {
              optedOut: audience.optedOut,
              duplicates: audience.rows - audience.phones,
              landlines: audience.phones - audience.optedOut - total,
            },
            startedAt: scheduled ? null : now,
            heartbeatAt: null,
            updatedAt: now,
          },
          tx,
        );
        await repo.clearNewUser(userId, tx);
        if (!scheduled) await queueDispatch(id, { tx });
        if (!scheduled) await announce(updated!, 'started', tx);
        return updated!;
      });
      deps.jobs.wake(dispatchQueue);
      logger.info(
        { campaignId: id, recipients: started.total, credits: started.creditsReserved, status: started.status },
        'campaign started',
      );
      return started;
    },

    pause: (userId: string, id: string) => pause(id, userId, { code: null }),

    async resume(userId: string, id: string): Promise<CampaignRow> {
      const now = clock.now();
      const resumed = await db.transaction(async (tx) => {
        const row = await repo.lock(userId, id, tx);
        if (!row) throw new AppError('CAMPAIGN_NOT_FOUND');
        // Stryker disable next-line EqualityOperator: equivalent but for one millisecond: a schedule due exactly now is started by the supervisor's next pass (`scheduled_at <= now`) instead of by this resume
        const scheduled = row.scheduledAt !== null && row.scheduledAt > now;
        const updated = await repo.transition(
          id,
          ['PAUSED'],
          {
            status: scheduled ? 'SCHEDULED' : 'RUNNING',
            statusReason: null,
            statusDetail: null,
            providerFailures: 0,
            heartbeatAt: null,
            startedAt: row.startedAt ?? (scheduled ? null : now),
            updatedAt: now,
          },
          tx,
        );
        if (!updated) throw new AppError('CAMPAIGN_NOT_PAUSED');
        if (!scheduled) await queueDispatch(id, { tx });
        if (!scheduled) await announce(updated, 'started', tx);
        return updated;
      });
      deps.jobs.wake(dispatchQueue);
      return resumed;
    },

    cancel: (userId: string, id: string) => cancel(id, userId),

    /** Administrators (`/campanhas-por-usuario`): audited. */
    pauseAsAdmin: (actorId: string, id: string) => pause(id, undefined, { code: 'PAUSED_BY_ADMIN' }, actorId),
    cancelAsAdmin: (actorId: string, id: string) => cancel(id, undefined, actorId),

    /** The carrier keeps failing: the campaign waits, with the reason shown, until the user resumes it. */
    async pauseForProvider(id: string, detail: string): Promise<void> {
      await db.transaction(async (tx) => {
        const paused = await repo.transition(
          id,
          ['RUNNING'],
          {
            status: 'PAUSED',
            statusReason: 'PROVIDER_FAILING',
            statusDetail: detail.slice(0, 500),
            updatedAt: clock.now(),
          },
          tx,
        );
        if (paused) await announce(paused, 'paused', tx);
      });
      deps.halt(id);
      logger.warn({ campaignId: id, detail }, 'campaign paused: its carrier keeps failing');
    },

    /** SCHEDULED → RUNNING once its time came (also after downtime), with its work queued. */
    async startScheduled(row: CampaignRow): Promise<void> {
      const now = clock.now();
      const started = await db.transaction(async (tx) => {
        const updated = await repo.transition(
          row.id,
          ['SCHEDULED'],
          { status: 'RUNNING', startedAt: now, heartbeatAt: null, updatedAt: now },
          tx,
        );
        if (updated) await queueDispatch(row.id, { tx });
        if (updated) await announce(updated, 'started', tx);
        return updated;
      });
      if (started) {
        deps.jobs.wake(dispatchQueue);
        logger.info({ campaignId: row.id, scheduledAt: row.scheduledAt }, 'scheduled campaign started');
      }
    },

    /**
     * Ends a campaign with nothing queued or in flight: RUNNING → COMPLETED, a CANCELED one gets
     * its end time; whatever its reservation still holds is released (nothing, when every batch
     * settled its own credits).
     */
    async finishIfDone(id: string): Promise<boolean> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const row = await repo.lockById(id, tx);
        if (!row || !(row.status === 'RUNNING' || (row.status === 'CANCELED' && !row.finishedAt))) return false;
        const pending = await repo.pending(id, tx);
        if (pending.queued || pending.submitting) return false;
        const done =
          row.status === 'RUNNING'
            ? await repo.transition(id, ['RUNNING'], { status: 'COMPLETED', finishedAt: now, updatedAt: now }, tx)
            : await repo.update(id, { finishedAt: now, updatedAt: now }, tx);
        // Stryker disable next-line ConditionalExpression,BooleanLiteral: unreachable under the row lock taken above (the move cannot fail); it narrows the type
        if (!done) return false;
        // Nothing, when every batch settled its own credits (releaseParts ignores 0).
        const left = row.creditsReserved - row.creditsUsed - row.creditsReleased;
        await releaseParts(row, left, tx);
        if (done.status === 'COMPLETED') await announce(done, 'completed', tx);
        logger.info({ campaignId: id, status: done.status, leftover: left }, 'campaign finished');
        return true;
      });
    },
  };
}

export type CampaignLifecycle = ReturnType<typeof createCampaignLifecycle>;
export type { Campaign };
