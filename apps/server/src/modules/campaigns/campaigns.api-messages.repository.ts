/**
 * The sending API's messages before the carrier sees them (ADR 018, 020): the request's snapshot
 * (one `unnest` insert, the ids chosen here so the answer lists them in the request's order) and
 * the cancel of one message still `queued`. Like the campaign's snapshot and cancel, they run in
 * the batch's own transaction beside the ledger's reservation or release.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { OutboundContent } from '../channels/index.ts';
import type { CampaignRow } from './campaigns.schema.ts';

/** One accepted message of a request. */
export type ApiMessageRow = {
  id: string;
  phone: string;
  parts: number;
  content: OutboundContent;
  externalId: string | null;
};

export function createApiMessagesRepository(db: Database) {
  return {
    /** The request's messages, `queued` in its batch (`campaign_id`), in one statement. */
    async insert(
      batch: Pick<CampaignRow, 'id' | 'userId' | 'channel'>,
      provider: string,
      rows: ApiMessageRow[],
      now: Date,
      tx: DbOrTx,
    ): Promise<void> {
      if (rows.length === 0) return;
      // One content for all (no variables): sent once, not once per row.
      const shared = rows.every((r) => r.content === rows[0]!.content) ? JSON.stringify(rows[0]!.content) : null;
      const contents = shared ? sql`${shared}::jsonb` : sql`r.content::jsonb`;
      await tx.execute(sql`
        insert into messages (id, user_id, channel, to_phone, status, parts, provider, content, campaign_id, external_id, created_at, updated_at)
        select r.id, ${batch.userId}, ${batch.channel}, r.phone, 'queued', r.parts, ${provider}, ${contents},
          ${batch.id}, r.external_id, ${now}, ${now}
        from unnest(${pgArray(rows.map((r) => r.id))}::uuid[], ${pgArray(rows.map((r) => r.phone))}::text[],
          ${pgArray(rows.map((r) => r.parts))}::int[],
          ${pgArray(shared ? [] : rows.map((r) => JSON.stringify(r.content)))}::text[],
          ${pgArray(rows.map((r) => r.externalId))}::text[])
          as r(id, phone, parts, content, external_id)`);
    },

    /** The batch a message of the user's API requests belongs to (undefined: not found, or not an API message). */
    async batchOf(userId: string, messageId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await rowsOf<{ campaignId: string }>(
        tx.execute(sql`
          select m.campaign_id as "campaignId" from messages m join campaigns c on c.id = m.campaign_id
          where m.id = ${messageId} and m.user_id = ${userId} and c.kind = 'api'`),
      );
      return row?.campaignId;
    },

    /** `queued` → `canceled` (nothing else moves); its parts, to release, or null when it was not queued. */
    async cancelQueued(messageId: string, now: Date, tx: DbOrTx): Promise<number | null> {
      const [row] = await rowsOf<{ parts: number }>(
        tx.execute(sql`
          update messages set status = 'canceled', updated_at = ${now}, finished_at = ${now}
          where id = ${messageId} and status = 'queued' returning parts`),
      );
      return row ? Number(row.parts) : null;
    },
  };
}

export type ApiMessagesRepository = ReturnType<typeof createApiMessagesRepository>;
