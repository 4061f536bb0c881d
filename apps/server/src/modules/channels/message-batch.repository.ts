/**
 * The SQL of the set-based message writes (channels.batch.ts, message-batch-state.ts): each
 * function is one statement over arrays (`unnest`), whatever the batch size, in the caller's
 * transaction (a lock, a `for update` read or a batch's write means something only inside one,
 * so `tx` is required and no database is bound). The rules (which rows changed, in what order
 * the statements run, when one is skipped) stay with the callers.
 */
import type { Channel, MessageEventStatus, MessageStatus } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { StatusEvent } from './provider.ts';

/**
 * Serialises everything about these carrier ids (their receipts, the storing of their submits)
 * across connections: both sides take the same advisory locks, in one order (no deadlock).
 */
export async function lockCarrierIds(keys: { provider: string; id: string }[], tx: DbOrTx): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(h) from (
      select distinct hashtextextended(p || ':' || i, 0) as h
      from unnest(${pgArray(keys.map((k) => k.provider))}::text[], ${pgArray(keys.map((k) => k.id))}::text[]) as k(p, i)
    ) x order by h`);
}

/** A message's row as a batch reads it (locked), with its last event time and whether it was read. */
export type BatchMessageRow = {
  id: string;
  status: MessageStatus;
  reason: string | null;
  last_at: string | Date | null;
  read: boolean;
  user_id: string;
  channel: Channel;
  to_phone: string;
  parts: number;
  campaign_id: string | null;
};

/** The messages' rows, locked in id order, their last event time and whether they were read. */
export async function selectMessagesForUpdate(ids: string[], tx: DbOrTx): Promise<BatchMessageRow[]> {
  return rowsOf<BatchMessageRow>(
    tx.execute(sql`
      with m as (select id, status, reason, user_id, channel, to_phone, parts, campaign_id from messages
        where id = any(${pgArray(ids)}::uuid[]) order by id for update)
      select m.id, m.status, m.reason, e.last_at, coalesce(e.read, false) as read,
        m.user_id, m.channel, m.to_phone, m.parts, m.campaign_id
      from m left join lateral (
        select max(at) as last_at, bool_or(status = 'read') as read from message_events where message_id = m.id
      ) e on true`),
  );
}

/** A message whose status a batch moved: its new values, and whether that status is final. */
export type ChangedMessage = {
  id: string;
  status: MessageStatus;
  reason: string | null;
  submittedAt: Date | undefined;
  final: boolean;
};

/** The changed messages written in one statement (`finished_at` set once, at the first final status). */
export async function updateMessages(changed: ChangedMessage[], now: Date, tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
      update messages m set status = u.status, reason = u.reason, updated_at = ${now},
        submitted_at = coalesce(u.submitted_at, m.submitted_at),
        finished_at = case when u.final then coalesce(m.finished_at, ${now}) else m.finished_at end
      from unnest(${pgArray(changed.map((m) => m.id))}::uuid[], ${pgArray(changed.map((m) => m.status))}::text[],
        ${pgArray(changed.map((m) => m.reason))}::text[], ${pgArray(changed.map((m) => m.submittedAt?.toISOString() ?? null))}::timestamptz[],
        ${pgArray(changed.map((m) => String(m.final)))}::boolean[])
        as u(id, status, reason, submitted_at, final)
      where m.id = u.id`);
}

/** A step of a message's history (`message_events`), as a batch adds it. */
export type MessageEventRow = {
  messageId: string;
  status: MessageEventStatus;
  reason: string | null;
  detail: StatusEvent['detail'] | null;
  at: Date;
};

/** The new history steps, in one statement. */
export async function insertMessageEvents(events: MessageEventRow[], tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
      insert into message_events (message_id, status, reason, detail, at)
      select e.message_id, e.status, e.reason, e.detail::jsonb, e.at
      from unnest(${pgArray(events.map((e) => e.messageId))}::uuid[], ${pgArray(events.map((e) => e.status))}::text[],
        ${pgArray(events.map((e) => e.reason))}::text[], ${pgArray(events.map((e) => (e.detail ? JSON.stringify(e.detail) : null)))}::text[],
        ${pgArray(events.map((e) => e.at.toISOString()))}::timestamptz[]) as e(message_id, status, reason, detail, at)`);
}

/** Receipts that must wait for their submit to be stored. */
export async function parkEarly(early: StatusEvent[], tx: DbOrTx): Promise<void> {
  if (early.length === 0) return;
  await tx.execute(sql`
    insert into early_receipts (provider, provider_message_id, event)
    select * from unnest(${pgArray(early.map((e) => e.provider))}::text[], ${pgArray(early.map((e) => e.providerMessageId))}::text[],
      ${pgArray(early.map((e) => JSON.stringify({ ...e, at: e.at.toISOString() })))}::jsonb[])`);
}
