/**
 * Messages' outcomes stored in batches, in a constant number of statements whatever the batch
 * size: the carrier ids of many submits, many settlements, many receipts. The campaign engine
 * sends thousands of messages a second; one transaction per receipt (about ten statements each)
 * capped storage at a few hundred a second. The rules are the single-message ones (ADR 010):
 * statuses only move forward, a long SMS settles when every part has its last word, a message's
 * history never goes back in time, a receipt whose submit is not stored yet waits in
 * `early_receipts`. The in-memory rules are in message-batch-state.ts, the SQL in
 * message-batch.repository.ts (with the early receipts' retention and sweep window).
 */
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  deleteEarlyReceipts,
  lockCarrierIds,
  parkEarly,
  planByKeys,
  purgeExpiredEarlyReceipts,
  selectCarrierIdOwners,
  selectEarlyReceiptCandidates,
  selectParts,
  takeEarlyReceipts,
  updateParts,
  upsertCarrierIds,
} from './message-batch.repository.ts';
import {
  advance,
  applyReceiptEvents,
  keyOf,
  loadMessages,
  type ReceiptContext,
  type ReceiptResult,
  reviveEvent,
  type StatusListener,
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

/** What the early-receipt sweep did. */
export type SweptReceipts = { swept: number; followUps: SubmittedBatchResult['followUps'] };

/** The receipts applied to a message, for what they bring (a URA key to the customer's URL). */
function appliedOf(results: ReceiptResult[]): SubmittedBatchResult['followUps'] {
  return results.flatMap((r) =>
    r.outcome === 'applied' && r.messageId ? [{ event: r.event, messageId: r.messageId }] : [],
  );
}

/** Receipts, in `tx` (whose caller took the carrier ids' locks): read what they touch, apply, write. */
async function applyReceiptsLocked(
  events: StatusEvent[],
  now: Date,
  onStatus: StatusListener | undefined,
  tx: DbOrTx,
): Promise<ReceiptResult[]> {
  const known = await selectCarrierIdOwners(events, tx);
  const messageIds = [...new Set(known.map((r) => r.message_id))];
  const ctx: ReceiptContext = {
    owner: new Map(known.map((r) => [keyOf(r.provider, r.provider_message_id), r.message_id])),
    state: await loadMessages(messageIds, tx),
    parts: new Map(),
    events: [],
  };
  // Every part of those messages (a receipt settles its message only when the others have too).
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, with no message the parts' read (`= any('{}')`) finds nothing
  if (messageIds.length > 0) {
    const rows = await selectParts(messageIds, tx);
    for (const r of rows) {
      const list = ctx.parts.get(r.message_id) ?? [];
      // Stryker disable next-line BooleanLiteral: equivalent, a part marked changed is written back with the values this transaction just read
      list.push({ key: keyOf(r.provider, r.provider_message_id), status: r.status, reason: r.reason, changed: false });
      ctx.parts.set(r.message_id, list);
    }
  }
  const { results, early } = applyReceiptEvents(ctx, events);
  // Stryker disable next-line MethodExpression: equivalent, the unchanged parts would be written back with the values just read
  const changedParts = [...ctx.parts.values()].flat().filter((p) => p.changed);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when true, an update from an empty unnest writes nothing
  if (changedParts.length > 0) {
    const split = changedParts.map((p) => p.key.split('\u0000') as [string, string]);
    await updateParts(
      changedParts.map((p, i) => ({ provider: split[i]![0], id: split[i]![1], status: p.status, reason: p.reason })),
      tx,
    );
  }
  await writeBack(ctx.state, ctx.events, now, onStatus, tx);
  await parkEarly(early, tx);
  return results;
}

export function createMessageBatches(
  transaction: <T>(fn: (tx: DbOrTx) => Promise<T>) => Promise<T>,
  onStatus?: StatusListener,
) {
  return {
    /** Receipts in one transaction. */
    applyReceipts(events: StatusEvent[], now = new Date()): Promise<ReceiptResult[]> {
      // Stryker disable next-line ConditionalExpression: equivalent when false, an empty transaction that locks, reads and writes nothing
      if (events.length === 0) return Promise.resolve([]);
      return transaction(async (tx) => {
        await planByKeys(tx);
        await lockCarrierIds(
          events.map((e) => ({ provider: e.provider, id: e.providerMessageId })),
          tx,
        );
        return applyReceiptsLocked(events, now, onStatus, tx);
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
      arrived: StatusEvent[],
      tx: DbOrTx,
    ): Promise<SubmittedBatchResult> {
      const moved = new Set<string>();
      // Stryker disable next-line ConditionalExpression: equivalent when false, nothing to lock, read or write gives the same empty result
      if (rows.length === 0 && arrived.length === 0) return { followUps: [], arrived: [], moved };
      // One entry per carrier id: a carrier that gave one id to two submits of this batch (or to
      // two parts of one message) would otherwise abort the whole batch's insert ("ON CONFLICT …
      // cannot affect row a second time"). The later row keeps it, as a reused id belongs to its
      // newest message; the other keeps its `sent` and its other parts.
      const byKey = new Map<string, { provider: string; id: string; messageId: string; part: number }>();
      for (const r of rows)
        for (const [part, id] of r.providerIds.entries()) {
          const key = keyOf(r.provider, id);
          byKey.delete(key);
          byKey.set(key, { provider: r.provider, id, messageId: r.messageId, part });
        }
      const flat = [...byKey.values()];
      await lockCarrierIds([...flat, ...arrived.map((e) => ({ provider: e.provider, id: e.providerMessageId }))], tx);
      const waiting =
        // Stryker disable next-line ConditionalExpression: equivalent when false, a delete joined to an empty unnest deletes nothing
        flat.length === 0 ? [] : await takeEarlyReceipts(flat, tx);
      const ctx: ReceiptContext = {
        owner: new Map(flat.map((f) => [keyOf(f.provider, f.id), f.messageId])),
        state: await loadMessages(
          rows.map((r) => r.messageId),
          tx,
        ),
        parts: new Map(),
        events: [],
      };
      for (const f of flat) {
        const list = ctx.parts.get(f.messageId) ?? [];
        // Stryker disable next-line BooleanLiteral: equivalent, a submit's parts are all inserted with their last word whatever `changed` says
        list.push({ key: keyOf(f.provider, f.id), status: null, reason: null, changed: false });
        ctx.parts.set(f.messageId, list);
      }
      for (const r of rows) {
        const m = ctx.state.get(r.messageId);
        if (m && advance(ctx.events, r.messageId, m, 'sent', now, null)) moved.add(r.messageId);
      }
      const earlier = waiting.sort((a, b) => Number(a.id) - Number(b.id)).map((w) => reviveEvent(w.event));
      const applied = applyReceiptEvents(ctx, [...earlier, ...arrived]);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when true, an insert from an empty unnest inserts nothing
      if (flat.length > 0) {
        // The ids go in with their parts' last word already (one write per id, not two).
        const partOf = new Map([...ctx.parts.values()].flat().map((p) => [p.key, p]));
        const last = flat.map((f) => partOf.get(keyOf(f.provider, f.id))!);
        await upsertCarrierIds(
          flat.map((f, i) => ({ ...f, status: last[i]!.status, reason: last[i]!.reason })),
          tx,
        );
      }
      await writeBack(ctx.state, ctx.events, now, onStatus, tx);
      await parkEarly(applied.early, tx);
      return {
        followUps: appliedOf(applied.results.slice(0, earlier.length)),
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
      // Stryker disable next-line ConditionalExpression: equivalent when false, no message read, none moved
      if (rows.length === 0) return moved;
      const state = await loadMessages(
        rows.map((r) => r.messageId),
        tx,
      );
      const events: ReceiptContext['events'] = [];
      for (const r of rows) {
        const m = state.get(r.messageId);
        if (m && advance(events, r.messageId, m, r.status, now, r.reason)) moved.add(r.messageId);
      }
      await writeBack(state, events, now, onStatus, tx);
      return moved;
    },

    /** Early receipts past retention (no submit will claim them any more): deleted; how many. */
    async purgeEarlyReceipts(): Promise<number> {
      return transaction(async (tx) => {
        const [row] = await purgeExpiredEarlyReceipts(tx);
        // Stryker disable next-line OptionalChaining: equivalent, `select count(*)` always returns its row
        return Number(row?.n ?? 0);
      });
    },

    /**
     * Early receipts of the last hour whose carrier id is known by now (a race lost): applied.
     * Returns how many, and those applied to a message (for their follow-ups).
     */
    async sweepEarlyReceipts(now = new Date(), limit = 1000): Promise<SweptReceipts> {
      return transaction(async (tx) => {
        const rows = await selectEarlyReceiptCandidates(limit, tx);
        // Stryker disable next-line ConditionalExpression: equivalent when false, no receipt to lock, delete or apply gives the same answer
        if (rows.length === 0) return { swept: 0, followUps: [] };
        await lockCarrierIds(
          rows.map((r) => ({ provider: r.provider, id: r.provider_message_id })),
          tx,
        );
        // Only the receipts this sweep deleted: another process's sweep that read the same ones
        // and took their locks first has applied them (a key pressed would be reported twice).
        const gone = await deleteEarlyReceipts(
          rows.map((r) => Number(r.id)),
          tx,
        );
        const mine = new Set(gone.map((g) => Number(g.id)));
        const taken = rows.filter((r) => mine.has(Number(r.id)));
        const results = await applyReceiptsLocked(
          taken.map((r) => reviveEvent(r.event)),
          now,
          onStatus,
          tx,
        );
        return { swept: taken.length, followUps: appliedOf(results) };
      });
    },
  };
}

export type MessageBatches = ReturnType<typeof createMessageBatches>;
