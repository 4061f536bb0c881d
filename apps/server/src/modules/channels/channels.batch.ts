/**
 * Messages' outcomes stored in batches, in a constant number of statements whatever the batch
 * size: the carrier ids of many submits, many settlements, many receipts. The campaign engine
 * sends thousands of messages a second; one transaction per receipt (about ten statements each)
 * capped storage at a few hundred a second. The rules are the single-message ones (ADR 010):
 * statuses only move forward, a long SMS settles when every part has its last word, a message's
 * history never goes back in time, a receipt whose submit is not stored yet waits in
 * `early_receipts`. Each batch reads the state it needs, applies the events in order in memory
 * (so duplicates and out-of-order receipts within a batch give what one-by-one would), and writes
 * the changes back with `unnest`.
 */
import type { MessageEventStatus, MessageStatus } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { advances, combineParts, isFinal } from './message-status.ts';
import type { StatusEvent } from './provider.ts';

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(q: Promise<unknown>): Promise<T[]> => ((await q) as Rows<T>).rows;
const keyOf = (provider: string, id: string) => `${provider}\u0000${id}`;

export type SubmittedRow = { messageId: string; provider: string; providerIds: string[] };
export type SettleRow = {
  messageId: string;
  status: 'failed' | 'unknown' | 'opted_out' | 'canceled';
  reason: string | null;
};
export type ReceiptResult = { event: StatusEvent; messageId?: string; outcome: 'applied' | 'early' | 'unchanged' };

type NewEvent = {
  messageId: string;
  status: MessageEventStatus;
  reason: string | null;
  detail: StatusEvent['detail'] | null;
  at: Date;
};
type MessageState = {
  status: MessageStatus;
  reason: string | null;
  lastAt: Date | null;
  read: boolean;
  changed: boolean;
  submittedAt?: Date;
};

/**
 * Serialises everything about these carrier ids (their receipts, the storing of their submits)
 * across connections: both sides take the same advisory locks, in one order (no deadlock).
 */
async function lockCarrierIds(tx: DbOrTx, keys: { provider: string; id: string }[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(h) from (
      select distinct hashtextextended(p || ':' || i, 0) as h
      from unnest(${pgArray(keys.map((k) => k.provider))}::text[], ${pgArray(keys.map((k) => k.id))}::text[]) as k(p, i)
    ) x order by h`);
}

/** The messages' rows (locked), their last event time and whether they were read. */
async function loadMessages(tx: DbOrTx, ids: string[]): Promise<Map<string, MessageState>> {
  const state = new Map<string, MessageState>();
  if (ids.length === 0) return state;
  const list = pgArray(ids);
  const rows = await rowsOf<{
    id: string;
    status: MessageStatus;
    reason: string | null;
    last_at: string | Date | null;
    read: boolean;
  }>(
    tx.execute(sql`
      with m as (select id, status, reason from messages where id = any(${list}::uuid[]) order by id for update)
      select m.id, m.status, m.reason,
        (select max(e.at) from message_events e where e.message_id = m.id) as last_at,
        exists (select 1 from message_events e where e.message_id = m.id and e.status = 'read') as read
      from m`),
  );
  for (const r of rows) {
    state.set(r.id, {
      status: r.status,
      reason: r.reason,
      lastAt: r.last_at ? new Date(r.last_at) : null,
      read: r.read,
      changed: false,
    });
  }
  return state;
}

/** Adds a step to a message's history, never before its previous one. */
function addEvent(events: NewEvent[], m: MessageState, e: Omit<NewEvent, 'at'> & { at: Date }): void {
  const at = m.lastAt && m.lastAt > e.at ? m.lastAt : e.at;
  m.lastAt = at;
  events.push({ ...e, at });
}

/** Moves a message forward (never back); records the step. */
function advance(
  events: NewEvent[],
  id: string,
  m: MessageState,
  status: MessageStatus,
  at: Date,
  reason: string | null,
  detail?: StatusEvent['detail'],
): boolean {
  if (!advances(m.status, status)) return false;
  m.status = status;
  m.reason = reason;
  m.changed = true;
  if (status === 'sent') m.submittedAt = at;
  addEvent(events, m, { messageId: id, status, reason, detail: detail ?? null, at });
  return true;
}

/** Writes the messages that changed and the new history steps, two statements. */
async function writeBack(tx: DbOrTx, state: Map<string, MessageState>, events: NewEvent[], now: Date): Promise<void> {
  const changed = [...state.entries()].filter(([, m]) => m.changed);
  if (changed.length > 0) {
    await tx.execute(sql`
      update messages m set status = u.status, reason = u.reason, updated_at = ${now},
        submitted_at = coalesce(u.submitted_at, m.submitted_at),
        finished_at = case when u.final then coalesce(m.finished_at, ${now}) else m.finished_at end
      from unnest(${pgArray(changed.map(([id]) => id))}::uuid[], ${pgArray(changed.map(([, m]) => m.status))}::text[],
        ${pgArray(changed.map(([, m]) => m.reason))}::text[], ${pgArray(changed.map(([, m]) => m.submittedAt?.toISOString() ?? null))}::timestamptz[],
        ${pgArray(changed.map(([, m]) => String(isFinal(m.status))))}::boolean[])
        as u(id, status, reason, submitted_at, final)
      where m.id = u.id`);
  }
  if (events.length > 0) {
    await tx.execute(sql`
      insert into message_events (message_id, status, reason, detail, at)
      select e.message_id, e.status, e.reason, e.detail::jsonb, e.at
      from unnest(${pgArray(events.map((e) => e.messageId))}::uuid[], ${pgArray(events.map((e) => e.status))}::text[],
        ${pgArray(events.map((e) => e.reason))}::text[], ${pgArray(events.map((e) => (e.detail ? JSON.stringify(e.detail) : null)))}::text[],
        ${pgArray(events.map((e) => e.at.toISOString()))}::timestamptz[]) as e(message_id, status, reason, detail, at)`);
  }
}

/**
 * Receipts, in `tx` (whose caller took the carrier ids' locks): parts move forward, messages
 * settle when all their parts have, `read` is recorded once, digits kept; unknown ids wait.
 */
async function applyReceiptsLocked(tx: DbOrTx, events: StatusEvent[], now: Date): Promise<ReceiptResult[]> {
  const provs = pgArray(events.map((e) => e.provider));
  const ids = pgArray(events.map((e) => e.providerMessageId));
  const known = await rowsOf<{ provider: string; provider_message_id: string; message_id: string }>(
    tx.execute(sql`
      select p.provider, p.provider_message_id, p.message_id from provider_message_ids p
      join (select distinct * from unnest(${provs}::text[], ${ids}::text[])) k(pv, id) on p.provider = k.pv and p.provider_message_id = k.id`),
  );
  const owner = new Map(known.map((r) => [keyOf(r.provider, r.provider_message_id), r.message_id]));
  const messageIds = [...new Set(known.map((r) => r.message_id))];
  const state = await loadMessages(tx, messageIds);
  // Every part of those messages (a receipt settles its message only when the others have too).
  const parts = new Map<
    string,
    { key: string; status: MessageStatus | null; reason: string | null; changed: boolean }[]
  >();
  if (messageIds.length > 0) {
    const rows = await rowsOf<{
      message_id: string;
      provider: string;
      provider_message_id: string;
      status: MessageStatus | null;
      reason: string | null;
    }>(
      tx.execute(sql`select message_id, provider, provider_message_id, status, reason from provider_message_ids
        where message_id = any(${pgArray(messageIds)}::uuid[])`),
    );
    for (const r of rows) {
      const list = parts.get(r.message_id) ?? [];
      list.push({ key: keyOf(r.provider, r.provider_message_id), status: r.status, reason: r.reason, changed: false });
      parts.set(r.message_id, list);
    }
  }
  const newEvents: NewEvent[] = [];
  const early: StatusEvent[] = [];
  const results: ReceiptResult[] = [];
  for (const event of events) {
    const key = keyOf(event.provider, event.providerMessageId);
    const messageId = owner.get(key);
    const m = messageId ? state.get(messageId) : undefined;
    if (!messageId || !m) {
      early.push(event);
      results.push({ event, outcome: 'early' });
      continue;
    }
    const siblings = parts.get(messageId) ?? [];
    const part = siblings.find((p) => p.key === key)!;
    const partStatus: MessageStatus = event.status === 'read' ? 'delivered' : event.status;
    let changed = false;
    if (part.status === null || advances(part.status, partStatus)) {
      part.status = partStatus;
      part.reason = event.reason ?? null;
      part.changed = true;
      changed = true;
    }
    const settled = combineParts(siblings);
    const moved = settled
      ? advance(newEvents, messageId, m, settled.status, event.at, settled.reason, event.detail)
      : partStatus === 'sent' && advance(newEvents, messageId, m, 'sent', event.at, null);
    const digits = event.detail?.digits !== undefined;
    if (!moved && digits)
      addEvent(newEvents, m, {
        messageId,
        status: partStatus,
        reason: null,
        detail: event.detail ?? null,
        at: event.at,
      });
    let read = false;
    if (event.status === 'read' && !m.read) {
      m.read = true;
      read = true;
      addEvent(newEvents, m, { messageId, status: 'read', reason: null, detail: null, at: event.at });
    }
    results.push({ event, messageId, outcome: changed || moved || read || digits ? 'applied' : 'unchanged' });
  }
  const changedParts = [...parts.values()].flat().filter((p) => p.changed);
  if (changedParts.length > 0) {
    const split = changedParts.map((p) => p.key.split('\u0000') as [string, string]);
    await tx.execute(sql`
      update provider_message_ids p set status = u.status, reason = u.reason
      from unnest(${pgArray(split.map((s) => s[0]))}::text[], ${pgArray(split.map((s) => s[1]))}::text[],
        ${pgArray(changedParts.map((p) => p.status))}::text[], ${pgArray(changedParts.map((p) => p.reason))}::text[]) as u(provider, id, status, reason)
      where p.provider = u.provider and p.provider_message_id = u.id`);
  }
  await writeBack(tx, state, newEvents, now);
  if (early.length > 0) {
    await tx.execute(sql`
      insert into early_receipts (provider, provider_message_id, event)
      select * from unnest(${pgArray(early.map((e) => e.provider))}::text[], ${pgArray(early.map((e) => e.providerMessageId))}::text[],
        ${pgArray(early.map((e) => JSON.stringify({ ...e, at: e.at.toISOString() })))}::jsonb[])`);
  }
  return results;
}

function reviveEvent(stored: unknown): StatusEvent {
  const e = stored as Omit<StatusEvent, 'at'> & { at: string };
  return { ...e, at: new Date(e.at) };
}

export function createMessageBatches(transaction: <T>(fn: (tx: DbOrTx) => Promise<T>) => Promise<T>) {
  return {
    /** Receipts in one transaction. */
    applyReceipts(events: StatusEvent[], now = new Date()): Promise<ReceiptResult[]> {
      if (events.length === 0) return Promise.resolve([]);
      return transaction(async (tx) => {
        await lockCarrierIds(
          tx,
          events.map((e) => ({ provider: e.provider, id: e.providerMessageId })),
        );
        return applyReceiptsLocked(tx, events, now);
      });
    },

    /**
     * The carrier took these messages: their ids stored (the newest submission owns a reused id),
     * the messages `sent`, and the receipts that came first applied now (returned, for their
     * follow-ups). In the caller's transaction.
     */
    async recordSubmittedBatch(
      rows: SubmittedRow[],
      now: Date,
      tx: DbOrTx,
    ): Promise<{ event: StatusEvent; messageId: string }[]> {
      if (rows.length === 0) return [];
      const flat = rows.flatMap((r) =>
        r.providerIds.map((id, part) => ({ provider: r.provider, id, messageId: r.messageId, part })),
      );
      await lockCarrierIds(tx, flat);
      if (flat.length > 0) {
        await tx.execute(sql`
          insert into provider_message_ids (provider, provider_message_id, message_id, part)
          select * from unnest(${pgArray(flat.map((f) => f.provider))}::text[], ${pgArray(flat.map((f) => f.id))}::text[],
            ${pgArray(flat.map((f) => f.messageId))}::uuid[], ${pgArray(flat.map((f) => f.part))}::smallint[])
          on conflict (provider, provider_message_id) do update
            set message_id = excluded.message_id, part = excluded.part, status = null, reason = null`);
      }
      const state = await loadMessages(
        tx,
        rows.map((r) => r.messageId),
      );
      const events: NewEvent[] = [];
      for (const r of rows) {
        const m = state.get(r.messageId);
        if (m) advance(events, r.messageId, m, 'sent', now, null);
      }
      await writeBack(tx, state, events, now);
      if (flat.length === 0) return [];
      const waiting = await rowsOf<{ event: unknown }>(
        tx.execute(sql`
          delete from early_receipts e using unnest(${pgArray(flat.map((f) => f.provider))}::text[], ${pgArray(flat.map((f) => f.id))}::text[]) as k(pv, id)
          where e.provider = k.pv and e.provider_message_id = k.id
          returning e.event, e.id`),
      );
      if (waiting.length === 0) return [];
      const sorted = (waiting as { event: unknown; id: number | string }[]).sort((a, b) => Number(a.id) - Number(b.id));
      const applied = await applyReceiptsLocked(
        tx,
        sorted.map((w) => reviveEvent(w.event)),
        now,
      );
      return applied.flatMap((r) =>
        r.outcome === 'applied' && r.messageId ? [{ event: r.event, messageId: r.messageId }] : [],
      );
    },

    /** Messages that end without a carrier's word (refused, maybe sent, opted out, canceled). In the caller's transaction. */
    async settleBatch(rows: SettleRow[], now: Date, tx: DbOrTx): Promise<void> {
      if (rows.length === 0) return;
      const state = await loadMessages(
        tx,
        rows.map((r) => r.messageId),
      );
      const events: NewEvent[] = [];
      for (const r of rows) {
        const m = state.get(r.messageId);
        if (m) advance(events, r.messageId, m, r.status, now, r.reason);
      }
      await writeBack(tx, state, events, now);
    },

    /** Early receipts whose carrier id is known by now (a race lost, a crash between the two): applied. */
    async sweepEarlyReceipts(now = new Date(), limit = 1000): Promise<number> {
      return transaction(async (tx) => {
        const rows = await rowsOf<{
          event: unknown;
          id: number | string;
          provider: string;
          provider_message_id: string;
        }>(
          tx.execute(sql`
            select e.id, e.event, e.provider, e.provider_message_id from early_receipts e
            where exists (select 1 from provider_message_ids p where p.provider = e.provider and p.provider_message_id = e.provider_message_id)
            order by e.id limit ${limit}`),
        );
        if (rows.length === 0) return 0;
        await lockCarrierIds(
          tx,
          rows.map((r) => ({ provider: r.provider, id: r.provider_message_id })),
        );
        await tx.execute(
          sql`delete from early_receipts where id = any(${pgArray(rows.map((r) => Number(r.id)))}::bigint[])`,
        );
        await applyReceiptsLocked(
          tx,
          rows.map((r) => reviveEvent(r.event)),
          now,
        );
        return rows.length;
      });
    },
  };
}

export type MessageBatches = ReturnType<typeof createMessageBatches>;
