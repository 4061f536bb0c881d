/**
 * The SQL of the set-based message writes (channels.batch.ts, message-batch-state.ts): each
 * function is one statement (`earlyReceiptCandidates` builds the sweep's) over arrays (`unnest`), whatever the batch size, in the caller's
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
 * For the rest of the transaction, the planner looks rows up by key rather than scanning. Every
 * read and write of a receipt batch is by key (carrier id, message id); without statistics (PGlite
 * never analyzes; a PostgreSQL without autovacuum, or one right after a campaign's ids were stored)
 * the planner hashes a batch's 500 keys against a scan of all of provider_message_ids, three times
 * a batch: a cost growing with every message ever sent.
 */
export async function planByKeys(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`set local enable_seqscan = off`);
}

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

/**
 * How long a receipt that came before its submit is kept (`early_receipts`). It waits only for
 * its submit's id to be stored, which happens when the batch that sent it settles (minutes at
 * most) or never (its process died: the message is settled `unknown` with no carrier id, and
 * nothing will ever match). Seven days is as long as SMSCs commonly let an SMS wait for its
 * recipient (validity periods are capped at a few days to a week), the last moment a receipt about
 * it can come, so a purged receipt can no longer be about a live message; keeping it longer would only let a carrier's wrapped id counter hand an ancient
 * receipt to a new message. Purged hourly (the `channels.housekeeping` job), on the database's
 * clock.
 */
const EARLY_RECEIPT_RETENTION = sql`interval '7 days'`;
/**
 * Which early receipts the sweep looks at: those received in the last hour. The storing of a
 * submit applies every receipt already waiting for its ids (under the ids' locks, in its own
 * transaction), so only a receipt parked at about the same moment as its id was stored (a race
 * lost) needs the sweep, which runs every 5 s in every process: an hour covers that and a restart
 * in between. Older receipts are left to be matched by their submit or purged, so that a table
 * of receipts nobody will claim (another system's messages on a shared carrier account) is not
 * read again every 5 s (the `early_receipts_received_idx` range).
 */
const EARLY_RECEIPT_SWEEP_WINDOW = sql`interval '1 hour'`;

/** The sweep's read: recent early receipts whose carrier id is stored by now. Exported for its plan's test. */
export function earlyReceiptCandidates(limit: number) {
  return sql`
    select e.id, e.event, e.provider, e.provider_message_id from early_receipts e
    where e.received_at >= now() - ${EARLY_RECEIPT_SWEEP_WINDOW}
      and exists (select 1 from provider_message_ids p where p.provider = e.provider and p.provider_message_id = e.provider_message_id)
    order by e.received_at, e.id limit ${limit}`;
}

/** Who owns each of these carrier ids (the receipts' `provider`, `providerMessageId`). */
export async function selectCarrierIdOwners(
  events: StatusEvent[],
  tx: DbOrTx,
): Promise<{ provider: string; provider_message_id: string; message_id: string }[]> {
  return rowsOf<{ provider: string; provider_message_id: string; message_id: string }>(
    tx.execute(sql`
      select p.provider, p.provider_message_id, p.message_id from provider_message_ids p
      join (select distinct * from unnest(${pgArray(events.map((e) => e.provider))}::text[], ${pgArray(events.map((e) => e.providerMessageId))}::text[])) k(pv, id)
        on p.provider = k.pv and p.provider_message_id = k.id`),
  );
}

/** Every part (carrier id) of these messages, with its last word. */
export async function selectParts(
  messageIds: string[],
  tx: DbOrTx,
): Promise<
  {
    message_id: string;
    provider: string;
    provider_message_id: string;
    status: MessageStatus | null;
    reason: string | null;
  }[]
> {
  return rowsOf<{
    message_id: string;
    provider: string;
    provider_message_id: string;
    status: MessageStatus | null;
    reason: string | null;
  }>(
    tx.execute(sql`select message_id, provider, provider_message_id, status, reason from provider_message_ids
        where message_id = any(${pgArray(messageIds)}::uuid[])`),
  );
}

/** A carrier id's new last word. */
export type PartUpdate = { provider: string; id: string; status: MessageStatus | null; reason: string | null };

/** The parts whose last word changed, in one statement. */
export async function updateParts(parts: PartUpdate[], tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
      update provider_message_ids p set status = u.status, reason = u.reason
      from unnest(${pgArray(parts.map((p) => p.provider))}::text[], ${pgArray(parts.map((p) => p.id))}::text[],
        ${pgArray(parts.map((p) => p.status))}::text[], ${pgArray(parts.map((p) => p.reason))}::text[]) as u(provider, id, status, reason)
      where p.provider = u.provider and p.provider_message_id = u.id`);
}

/** The early receipts waiting for these carrier ids: deleted and returned (their event, their id). */
export async function takeEarlyReceipts(
  keys: { provider: string; id: string }[],
  tx: DbOrTx,
): Promise<{ event: unknown; id: number | string }[]> {
  return rowsOf<{ event: unknown; id: number | string }>(
    tx.execute(sql`
                delete from early_receipts e using unnest(${pgArray(keys.map((f) => f.provider))}::text[], ${pgArray(keys.map((f) => f.id))}::text[]) as k(pv, id)
                where e.provider = k.pv and e.provider_message_id = k.id
                returning e.event, e.id`),
  );
}

/** A carrier id of a submit, its message and part, and the part's last word already. */
export type CarrierIdRow = {
  provider: string;
  id: string;
  messageId: string;
  part: number;
  status: MessageStatus | null;
  reason: string | null;
};

/** The submits' carrier ids stored in one statement (the newest submission owns a reused id). */
export async function upsertCarrierIds(rows: CarrierIdRow[], tx: DbOrTx): Promise<void> {
  await tx.execute(sql`
          insert into provider_message_ids (provider, provider_message_id, message_id, part, status, reason)
          select * from unnest(${pgArray(rows.map((f) => f.provider))}::text[], ${pgArray(rows.map((f) => f.id))}::text[],
            ${pgArray(rows.map((f) => f.messageId))}::uuid[], ${pgArray(rows.map((f) => f.part))}::smallint[],
            ${pgArray(rows.map((p) => p.status))}::text[], ${pgArray(rows.map((p) => p.reason))}::text[])
          on conflict (provider, provider_message_id) do update
            set message_id = excluded.message_id, part = excluded.part, status = excluded.status, reason = excluded.reason`);
}

/** Early receipts past retention deleted; one row: how many. */
export async function purgeExpiredEarlyReceipts(tx: DbOrTx): Promise<{ n: number | string }[]> {
  return rowsOf<{ n: number | string }>(
    tx.execute(sql`with gone as (delete from early_receipts where received_at < now() - ${EARLY_RECEIPT_RETENTION} returning 1)
            select count(*) as n from gone`),
  );
}

/** The sweep's candidates (`earlyReceiptCandidates`), read. */
export async function selectEarlyReceiptCandidates(
  limit: number,
  tx: DbOrTx,
): Promise<{ event: unknown; id: number | string; provider: string; provider_message_id: string }[]> {
  return rowsOf<{
    event: unknown;
    id: number | string;
    provider: string;
    provider_message_id: string;
  }>(tx.execute(earlyReceiptCandidates(limit)));
}

/** These early receipts deleted; the ids this call deleted (another sweep may have taken some). */
export async function deleteEarlyReceipts(ids: number[], tx: DbOrTx): Promise<{ id: number | string }[]> {
  return rowsOf<{ id: number | string }>(
    tx.execute(sql`delete from early_receipts where id = any(${pgArray(ids)}::bigint[]) returning id`),
  );
}
