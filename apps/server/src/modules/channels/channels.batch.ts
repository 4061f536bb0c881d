/**
 * Messages' outcomes stored in batches, in a constant number of statements whatever the batch
 * size: the carrier ids of many submits, many settlements, many receipts. The campaign engine
 * sends thousands of messages a second; one transaction per receipt (about ten statements each)
 * capped storage at a few hundred a second. The rules are the single-message ones (ADR 010):
 * statuses only move forward, a long SMS settles when every part has its last word, a message's
 * history never goes back in time, a receipt whose submit is not stored yet waits in
 * `early_receipts`. The in-memory rules are in message-batch-state.ts.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import {
  advance,
  applyReceiptEvents,
  keyOf,
  loadMessages,
  lockCarrierIds,
  type PartState,
  parkEarly,
  type ReceiptContext,
  type ReceiptResult,
  reviveEvent,
  writeBack,
} from './message-batch-state.ts';
import type { StatusEvent } from './provider.ts';

export type { ReceiptResult } from './message-batch-state.ts';
export type SubmittedRow = { messageId: string; provider: string; providerIds: string[] };
export type SettleRow = {
  messageId: string;
  status: 'failed' | 'unknown' | 'opted_out' | 'canceled';
  reason: string | null;
};
/** What storing a batch of submits did with the receipts that had come first. */
export type SubmittedBatchResult = {
  /** Receipts that had waited in `early_receipts`, now applied (for their follow-ups). */
  followUps: { event: StatusEvent; messageId: string }[];
  /** The `arrived` receipts given along, in their order. */
  arrived: ReceiptResult[];
  /**
   * The messages this call moved to `sent` (from `submitting`): a message settled meanwhile
   * (cut off as `unknown`, say) gets its ids stored but is not among them, so its credits are
   * not moved twice.
   */
  moved: Set<string>;
};

/** Receipts, in `tx` (whose caller took the carrier ids' locks): read what they touch, apply, write. */
async function applyReceiptsLocked(tx: DbOrTx, events: StatusEvent[], now: Date): Promise<ReceiptResult[]> {
  const known = await rowsOf<{ provider: string; provider_message_id: string; message_id: string }>(
    tx.execute(sql`
      select p.provider, p.provider_message_id, p.message_id from provider_message_ids p
      join (select distinct * from unnest(${pgArray(events.map((e) => e.provider))}::text[], ${pgArray(events.map((e) => e.providerMessageId))}::text[])) k(pv, id)
        on p.provider = k.pv and p.provider_message_id = k.id`),
  );
  const messageIds = [...new Set(known.map((r) => r.message_id))];
  const ctx: ReceiptContext = {
    owner: new Map(known.map((r) => [keyOf(r.provider, r.provider_message_id), r.message_id])),
    state: await loadMessages(tx, messageIds),
    parts: new Map(),
    events: [],
  };
  // Every part of those messages (a receipt settles its message only when the others have too).
  if (messageIds.length > 0) {
    const rows = await rowsOf<{
      message_id: string;
      provider: string;
      provider_message_id: string;
      status: PartState['status'];
      reason: string | null;
    }>(
      tx.execute(sql`select message_id, provider, provider_message_id, status, reason from provider_message_ids
        where message_id = any(${pgArray(messageIds)}::uuid[])`),
    );
    for (const r of rows) {
      const list = ctx.parts.get(r.message_id) ?? [];
      list.push({ key: keyOf(r.provider, r.provider_message_id), status: r.status, reason: r.reason, changed: false });
      ctx.parts.set(r.message_id, list);
    }
  }
  const { results, early } = applyReceiptEvents(ctx, events);
  const changedParts = [...ctx.parts.values()].flat().filter((p) => p.changed);
  if (changedParts.length > 0) {
    const split = changedParts.map((p) => p.key.split('\u0000') as [string, string]);
    await tx.execute(sql`
      update provider_message_ids p set status = u.status, reason = u.reason
      from unnest(${pgArray(split.map((s) => s[0]))}::text[], ${pgArray(split.map((s) => s[1]))}::text[],
        ${pgArray(changedParts.map((p) => p.status))}::text[], ${pgArray(changedParts.map((p) => p.reason))}::text[]) as u(provider, id, status, reason)
      where p.provider = u.provider and p.provider_message_id = u.id`);
  }
  await writeBack(tx, ctx.state, ctx.events, now);
  await parkEarly(tx, early);
  return results;
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
     * the messages `sent`, and the receipts that came first applied in the same writes: those
     * that waited in `early_receipts` and those handed over in `arrived` (the receipts that came
     * back while the batch was being sent). Each message row is written once, however many of
     * its receipts are already in. In the caller's transaction.
     */
    async recordSubmittedBatch(
      rows: SubmittedRow[],
      now: Date,
      tx: DbOrTx,
      arrived: StatusEvent[] = [],
    ): Promise<SubmittedBatchResult> {
      const moved = new Set<string>();
      if (rows.length === 0 && arrived.length === 0) return { followUps: [], arrived: [], moved };
      const flat = rows.flatMap((r) =>
        r.providerIds.map((id, part) => ({ provider: r.provider, id, messageId: r.messageId, part })),
      );
      await lockCarrierIds(tx, [...flat, ...arrived.map((e) => ({ provider: e.provider, id: e.providerMessageId }))]);
      const waiting =
        flat.length === 0
          ? []
          : await rowsOf<{ event: unknown; id: number | string }>(
              tx.execute(sql`
                delete from early_receipts e using unnest(${pgArray(flat.map((f) => f.provider))}::text[], ${pgArray(flat.map((f) => f.id))}::text[]) as k(pv, id)
                where e.provider = k.pv and e.provider_message_id = k.id
                returning e.event, e.id`),
            );
      const ctx: ReceiptContext = {
        owner: new Map(flat.map((f) => [keyOf(f.provider, f.id), f.messageId])),
        state: await loadMessages(
          tx,
          rows.map((r) => r.messageId),
        ),
        parts: new Map(),
        events: [],
      };
      for (const f of flat) {
        const list = ctx.parts.get(f.messageId) ?? [];
        list.push({ key: keyOf(f.provider, f.id), status: null, reason: null, changed: false });
        ctx.parts.set(f.messageId, list);
      }
      for (const r of rows) {
        const m = ctx.state.get(r.messageId);
        if (m && advance(ctx.events, r.messageId, m, 'sent', now, null)) moved.add(r.messageId);
      }
      const earlier = waiting.sort((a, b) => Number(a.id) - Number(b.id)).map((w) => reviveEvent(w.event));
      const applied = applyReceiptEvents(ctx, [...earlier, ...arrived]);
      if (flat.length > 0) {
        // The ids go in with their parts' last word already (one write per id, not two).
        const partOf = new Map([...ctx.parts.values()].flat().map((p) => [p.key, p]));
        const last = flat.map((f) => partOf.get(keyOf(f.provider, f.id))!);
        await tx.execute(sql`
          insert into provider_message_ids (provider, provider_message_id, message_id, part, status, reason)
          select * from unnest(${pgArray(flat.map((f) => f.provider))}::text[], ${pgArray(flat.map((f) => f.id))}::text[],
            ${pgArray(flat.map((f) => f.messageId))}::uuid[], ${pgArray(flat.map((f) => f.part))}::smallint[],
            ${pgArray(last.map((p) => p.status))}::text[], ${pgArray(last.map((p) => p.reason))}::text[])
          on conflict (provider, provider_message_id) do update
            set message_id = excluded.message_id, part = excluded.part, status = excluded.status, reason = excluded.reason`);
      }
      await writeBack(tx, ctx.state, ctx.events, now);
      await parkEarly(tx, applied.early);
      const fromWaiting = applied.results.slice(0, earlier.length);
      return {
        followUps: fromWaiting.flatMap((r) =>
          r.outcome === 'applied' && r.messageId ? [{ event: r.event, messageId: r.messageId }] : [],
        ),
        arrived: applied.results.slice(earlier.length),
        moved,
      };
    },

    /**
     * Messages that end without a carrier's word (refused, maybe sent, opted out, canceled). In
     * the caller's transaction. Returns the ids that moved (one settled meanwhile does not).
     */
    async settleBatch(rows: SettleRow[], now: Date, tx: DbOrTx): Promise<Set<string>> {
      const moved = new Set<string>();
      if (rows.length === 0) return moved;
      const state = await loadMessages(
        tx,
        rows.map((r) => r.messageId),
      );
      const events: ReceiptContext['events'] = [];
      for (const r of rows) {
        const m = state.get(r.messageId);
        if (m && advance(events, r.messageId, m, r.status, now, r.reason)) moved.add(r.messageId);
      }
      await writeBack(tx, state, events, now);
      return moved;
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
