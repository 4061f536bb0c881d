/**
 * The customer's endpoints in the database (CRUD, who listens to what, the failing ones
 * disabled, where to tell the account) and the balance thresholds behind `balance.low`. Part of
 * the webhooks repository (spread into it), kept apart to stay readable.
 */
import type { CreditType } from '@ecoa/shared';
import { and, asc, count, eq, lt, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import { users } from '../users/index.ts';
import { balanceAlerts, webhookEndpoints } from './webhooks.schema.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function createEndpointQueries(db: Database) {
  return {
    async insertEndpoint(values: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
      const [row] = await db.insert(webhookEndpoints).values(values).returning();
      return row!;
    },

    async countEndpoints(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
      return row?.n ?? 0;
    },

    listEndpoints(userId: string): Promise<EndpointRow[]> {
      return db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.userId, userId))
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
    },

    async findEndpoint(userId: string, id: string): Promise<EndpointRow | undefined> {
      const [row] = await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, id)));
      return row;
    },

    async updateEndpoint(
      userId: string,
      id: string,
      set: Partial<typeof webhookEndpoints.$inferInsert>,
      tx: DbOrTx = db,
    ): Promise<EndpointRow | undefined> {
      const [row] = await tx
        .update(webhookEndpoints)
        .set(set)
        .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, id)))
        .returning();
      return row;
    },

    async deleteEndpoint(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, id)))
        .returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },

    /** The user's enabled endpoints and their events (the publish path's cache fills from this). */
    subscriptions(userId: string, tx: DbOrTx = db): Promise<{ id: string; events: string[] }[]> {
      return tx
        .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.enabled, true)));
    },

    /** Disables an endpoint that kept failing; true when this call did (the e-mail goes once). */
    async disableFailing(endpointId: string, failingBefore: Date, now: Date): Promise<EndpointRow | undefined> {
      const [row] = await db
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: 'failing', updatedAt: now })
        .where(
          and(
            eq(webhookEndpoints.id, endpointId),
            eq(webhookEndpoints.enabled, true),
            lt(webhookEndpoints.failingSince, failingBefore),
          ),
        )
        .returning();
      return row;
    },

    /** Where to tell the account (an endpoint disabled): its e-mail and language. */
    async accountOf(userId: string): Promise<{ email: string; language: 'pt' | 'en' | 'cn' } | undefined> {
      const [row] = await db
        .select({ email: users.email, language: users.language })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    },

    async balanceThresholds(userId: string): Promise<{ creditType: CreditType; threshold: number }[]> {
      return db
        .select({ creditType: balanceAlerts.creditType, threshold: balanceAlerts.threshold })
        .from(balanceAlerts)
        .where(eq(balanceAlerts.userId, userId));
    },

    async setBalanceThreshold(userId: string, creditType: CreditType, threshold: number | null): Promise<void> {
      if (threshold === null) {
        await db
          .delete(balanceAlerts)
          .where(and(eq(balanceAlerts.userId, userId), eq(balanceAlerts.creditType, creditType)));
        return;
      }
      await db
        .insert(balanceAlerts)
        .values({ userId, creditType, threshold, below: false })
        .onConflictDoUpdate({
          target: [balanceAlerts.userId, balanceAlerts.creditType],
          set: { threshold, below: false },
        });
    },

    /**
     * The balance of a credit type moved to `balance`: true when it just crossed the user's
     * threshold downwards (the alert fires once, re-armed when the balance climbs back over).
     */
    async crossedBelow(userId: string, creditType: CreditType, balance: number, tx: DbOrTx = db) {
      const rows = await rowsOf<{ threshold: number; fired: boolean }>(
        tx.execute(sql`
          with before as (
            select threshold, below from balance_alerts where user_id = ${userId} and credit_type = ${creditType} for update
          )
          update balance_alerts a set below = ${balance} < a.threshold
          from before b where a.user_id = ${userId} and a.credit_type = ${creditType}
          returning a.threshold, (not b.below and ${balance} < a.threshold) as fired`),
      );
      const row = rows[0];
      return row?.fired ? { threshold: row.threshold } : null;
    },
  };
}
