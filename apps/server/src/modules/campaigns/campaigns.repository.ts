import type { CampaignStatus } from '@ecoa/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { dateOf, rowsOf } from '../../platform/db/rows.ts';
import type { LiveWorker } from '../../platform/pacing/process-share.ts';
import { users } from '../users/index.ts';
import { createRecipientQueries } from './campaigns.recipients.repository.ts';
import { type CampaignRow, campaigns, dispatchWorkers } from './campaigns.schema.ts';

export type {
  AudienceCounts,
  ClaimedRecipient,
  Recipient,
  RecipientRow,
} from './campaigns.recipients.repository.ts';

/** A worker that has not beaten for this long is dead: what it claimed was cut off. */
export const WORKER_DEAD_AFTER_SECONDS = 30;

export type NewCampaign = typeof campaigns.$inferInsert;

/**
 * A claimed recipient (`m`) whose dispatcher is gone: its process stopped beating, or its batch
 * has not been refreshed for ten minutes (a live dispatcher refreshes the batches it has out
 * every minute, so only a hung loop's, or one whose outcome could not be stored, get here).
 */
const isCutOff = sql`(m.updated_at < now() - interval '10 minutes'
  or not exists (select 1 from dispatch_workers w where w.id = m.worker_id
    and w.heartbeat_at > now() - make_interval(secs => ${WORKER_DEAD_AFTER_SECONDS})))`;

export function createCampaignsRepository(db: Database) {
  /** The supervisor's sweeps: every campaign meeting all of `conditions`. */
  const campaignsWhere = (...conditions: SQL[]): Promise<CampaignRow[]> =>
    db
      .select()
      .from(campaigns)
      .where(and(...conditions));

  return {
    ...createRecipientQueries(db),
    async insert(row: NewCampaign, tx: DbOrTx = db): Promise<CampaignRow> {
      const [created] = await tx.insert(campaigns).values(row).returning();
      return created!;
    },

    async update(id: string, patch: Partial<NewCampaign>, tx: DbOrTx = db): Promise<CampaignRow | undefined> {
      const [row] = await tx.update(campaigns).set(patch).where(eq(campaigns.id, id)).returning();
      return row;
    },

    /** Moves the campaign from one of `from` to `to` (with `patch`); undefined when it was not in `from`. */
    async transition(
      id: string,
      from: CampaignStatus[],
      patch: Partial<NewCampaign> & { status: CampaignStatus },
      tx: DbOrTx = db,
    ): Promise<CampaignRow | undefined> {
      const [row] = await tx
        .update(campaigns)
        .set(patch)
        .where(and(eq(campaigns.id, id), inArray(campaigns.status, from)))
        .returning();
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<CampaignRow | undefined> {
      const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id));
      return row;
    },

    /** The user's campaign made in the wizard (the sending API's batches are not campaigns to the user). */
    async findOwned(userId: string, id: string): Promise<CampaignRow | undefined> {
      const [row] = await db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.id, id), eq(campaigns.userId, userId), eq(campaigns.kind, 'campaign')));
      return row;
    },

    /** Locks the campaign row for the rest of the transaction (start, cancel). */
    async lock(userId: string, id: string, tx: DbOrTx): Promise<CampaignRow | undefined> {
      const [row] = await tx
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.id, id), eq(campaigns.userId, userId)))
        .for('update');
      return row;
    },

    /** Locks the campaign row (any owner: the supervisor, an administrator). */
    async lockById(id: string, tx: DbOrTx): Promise<CampaignRow | undefined> {
      const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
      return row;
    },

    /**
     * Takes over a RUNNING campaign nobody beat for within `seconds`: true for exactly one
     * supervisor, which then queues its work again.
     */
    async adoptOrphan(id: string, seconds: number): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        db.execute(sql`
          update campaigns set heartbeat_at = now() where id = ${id} and status = 'RUNNING'
            and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ${seconds}))
          returning id`),
      );
      return rows.length > 0;
    },

    /** Adds to the campaign's credit mirror (the ledger moved the same amounts in this transaction). */
    async addCredits(id: string, moved: { used?: number; released?: number }, tx: DbOrTx): Promise<void> {
      await tx
        .update(campaigns)
        .set({
          creditsUsed: sql`${campaigns.creditsUsed} + ${moved.used ?? 0}`,
          creditsReleased: sql`${campaigns.creditsReleased} + ${moved.released ?? 0}`,
        })
        .where(eq(campaigns.id, id));
    },

    /** A dispatcher is working on it (and the supervisor leaves it alone). */
    async beat(id: string): Promise<void> {
      await db.execute(sql`update campaigns set heartbeat_at = now() where id = ${id}`);
    },

    async noteProviderFailure(id: string, failed: boolean): Promise<number> {
      const [row] = await db
        .update(campaigns)
        .set({ providerFailures: failed ? sql`${campaigns.providerFailures} + 1` : 0 })
        .where(eq(campaigns.id, id))
        .returning({ n: campaigns.providerFailures });
      return row?.n ?? 0;
    },

    /** Scheduled campaigns whose time came (also those whose time passed while Ecoa was down). */
    due: (now: Date) => campaignsWhere(eq(campaigns.status, 'SCHEDULED'), sql`${campaigns.scheduledAt} <= ${now}`),

    /** RUNNING campaigns no dispatcher beat for within `seconds` (their worker died, or they waited for their window). */
    orphaned: (seconds: number) =>
      campaignsWhere(
        eq(campaigns.status, 'RUNNING'),
        sql`(${campaigns.heartbeatAt} is null or ${campaigns.heartbeatAt} < now() - make_interval(secs => ${seconds}))`,
      ),

    /** RUNNING campaigns with recipients still queued (every live process helps with them). */
    runningWithQueued: () =>
      campaignsWhere(
        eq(campaigns.status, 'RUNNING'),
        sql`exists (select 1 from messages m where m.campaign_id = ${campaigns.id} and m.status = 'queued')`,
      ),

    /** RUNNING or CANCELED campaigns with nothing queued or in flight but not finished yet. */
    unfinished: () =>
      campaignsWhere(
        sql`(${campaigns.status} = 'RUNNING' or (${campaigns.status} = 'CANCELED' and ${campaigns.finishedAt} is null))`,
        sql`not exists (select 1 from messages m where m.campaign_id = ${campaigns.id} and m.status in ('queued', 'submitting'))`,
      ),

    /**
     * Recipients left `submitting` by a dispatcher that stopped beating (killed, crashed), or for
     * longer than any carrier call lasts (their outcome could not be stored).
     */
    async cutOff(limit = 5000): Promise<{ id: string; campaignId: string; parts: number; userId: string }[]> {
      return rowsOf(
        db.execute(sql`
          select m.id, m.campaign_id as "campaignId", m.parts, m.user_id as "userId" from messages m
          where m.status = 'submitting' and m.campaign_id is not null and ${isCutOff}
          limit ${limit}`),
      );
    },

    /** Which of `ids` are still cut off, read after the cut-off's transaction locked their campaign. */
    async cutOffIn(ids: string[], tx: DbOrTx): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await rowsOf<{ id: string }>(
        tx.execute(sql`
          select m.id from messages m
          where m.id = any(${pgArray(ids)}::uuid[]) and m.status = 'submitting' and ${isCutOff}`),
      );
      return new Set(rows.map((r) => r.id));
    },

    /** This process is alive. */
    async workerBeat(workerId: string, pid: number, carriers: readonly string[] = []): Promise<void> {
      await db
        .insert(dispatchWorkers)
        .values({
          id: workerId,
          heartbeatAt: sql`now()` as unknown as Date,
          startedAt: sql`now()` as unknown as Date,
          pid,
          carriers: carriers.join(' '),
        })
        .onConflictDoUpdate({ target: dispatchWorkers.id, set: { heartbeatAt: sql`now()` } });
    },

    /** PGlite is one process: any other worker is a previous run, dead. */
    async forgetOtherWorkers(workerId: string): Promise<void> {
      await db.execute(sql`delete from dispatch_workers where id <> ${workerId}`);
    },

    async forgetWorker(workerId: string): Promise<void> {
      await db.delete(dispatchWorkers).where(eq(dispatchWorkers.id, workerId));
    },

    /**
     * The dispatching processes alive (the campaigns' and their carrier accounts' rates are shared
     * among them), by id, as the database saw them `at`.
     */
    async liveWorkers(): Promise<{ at: Date; workers: LiveWorker[] }> {
      type Row = {
        id: string;
        started_at: Date | string;
        viewed_at: Date | string | null;
        heartbeat_at: Date | string;
        carriers: string | null;
        at: Date | string;
      };
      const rows = await rowsOf<Row>(
        db.execute(sql`
          select id, started_at, viewed_at, heartbeat_at, carriers, now() as at from dispatch_workers
          where heartbeat_at > now() - make_interval(secs => ${WORKER_DEAD_AFTER_SECONDS})
          order by id`),
      );
      const ms = (d: Date | string) => dateOf(d).getTime();
      return {
        at: rows[0] ? dateOf(rows[0].at) : new Date(),
        workers: rows.map((r) => ({
          id: r.id,
          startedAt: ms(r.started_at),
          viewedAt: r.viewed_at === null ? null : ms(r.viewed_at),
          heartbeatAt: ms(r.heartbeat_at),
          carriers: r.carriers ? r.carriers.split(' ') : [],
        })),
      };
    },

    /** This process counted the live processes at `at` (and took its share): those that joined before may send. */
    async viewed(workerId: string, at: Date): Promise<void> {
      await db.update(dispatchWorkers).set({ viewedAt: at }).where(eq(dispatchWorkers.id, workerId));
    },

    /** Whether a scheduled/running/paused campaign of the user plays this audio. */
    async audioInUse(userId: string, audioId: string, tx: DbOrTx = db): Promise<boolean> {
      const rows = await rowsOf<{ id: string }>(
        tx.execute(sql`
          select id from campaigns where user_id = ${userId}
            and status in ('SCHEDULED', 'RUNNING', 'PAUSED')
            and (content->>'audioId' = ${audioId} or content->'menu'->>'audioId' = ${audioId})
          limit 1`),
      );
      return rows.length > 0;
    },

    /** The user's first campaign started: the onboarding is over. */
    async clearNewUser(userId: string, tx: DbOrTx): Promise<void> {
      await tx.update(users).set({ isNewUser: false }).where(eq(users.id, userId));
    },
  };
}

export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
