/**
 * The in-memory half of the set-based message writes (channels.batch.ts): a batch reads the rows
 * it needs once, applies its events here in order (so duplicates and out-of-order receipts
 * within a batch give what one-by-one would), and writes what changed back in a constant number
 * of statements with `unnest`, whatever the batch size (their SQL: message-batch.repository.ts).
 */
import type { Channel, MessageStatus } from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  insertMessageEvents,
  type MessageEventRow,
  selectMessagesForUpdate,
  updateMessages,
} from './message-batch.repository.ts';
import { advances, combineParts, isFinal } from './message-status.ts';
import type { StatusEvent } from './provider.ts';

export const keyOf = (provider: string, id: string) => `${provider}\u0000${id}`;

export type ReceiptResult = { event: StatusEvent; messageId?: string; outcome: 'applied' | 'early' | 'unchanged' };

/** A step of a message's history a batch adds (written by `insertMessageEvents`). */
export type NewEvent = MessageEventRow;
export type MessageState = {
  status: MessageStatus;
  reason: string | null;
  lastAt: Date | null;
  read: boolean;
  changed: boolean;
  submittedAt?: Date;
  /** Whose message it is and what (what a status listener reports). */
  owner?: { userId: string; channel: Channel; to: string; parts: number; campaignId: string | null };
};

/** A step a batch wrote, with its message's owner: what the customer's `message.status` webhook reports. */
export type StatusChange = NewEvent & NonNullable<MessageState['owner']>;
/** Told, in the batch's transaction, of every step it wrote (webhooks' outbox). */
export type StatusListener = (changes: StatusChange[], tx: DbOrTx) => Promise<void>;
/** One carrier id of a message (a part of a long SMS) and the last word on it. */
export type PartState = { key: string; status: MessageStatus | null; reason: string | null; changed: boolean };

/** What a batch of receipts works on: who owns each carrier id, the messages, their parts. */
export type ReceiptContext = {
  owner: Map<string, string>;
  state: Map<string, MessageState>;
  parts: Map<string, PartState[]>;
  events: NewEvent[];
};

/** The messages' rows (locked), their last event time and whether they were read. */
export async function loadMessages(ids: string[], tx: DbOrTx): Promise<Map<string, MessageState>> {
  const state = new Map<string, MessageState>();
  if (ids.length === 0) return state;
  const rows = await selectMessagesForUpdate(ids, tx);
  for (const r of rows) {
    state.set(r.id, {
      status: r.status,
      reason: r.reason,
      lastAt: r.last_at ? new Date(r.last_at) : null,
      read: r.read,
      changed: false,
      owner: { userId: r.user_id, channel: r.channel, to: r.to_phone, parts: r.parts, campaignId: r.campaign_id },
    });
  }
  return state;
}

/** Adds a step to a message's history, never before its previous one. */
export function addEvent(events: NewEvent[], m: MessageState, e: NewEvent): void {
  const at = m.lastAt && m.lastAt > e.at ? m.lastAt : e.at;
  m.lastAt = at;
  events.push({ ...e, at });
}

/** Moves a message forward (never back); records the step. */
export function advance(
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
export async function writeBack(
  state: Map<string, MessageState>,
  events: NewEvent[],
  now: Date,
  onStatus: StatusListener | undefined,
  tx: DbOrTx,
): Promise<void> {
  const changed = [...state.entries()].filter(([, m]) => m.changed);
  if (changed.length > 0) {
    await updateMessages(
      changed.map(([id, m]) => ({
        id,
        status: m.status,
        reason: m.reason,
        submittedAt: m.submittedAt,
        final: isFinal(m.status),
      })),
      now,
      tx,
    );
  }
  if (events.length > 0) await insertMessageEvents(events, tx);
  if (onStatus && events.length > 0) {
    const changes: StatusChange[] = [];
    for (const e of events) {
      const owner = state.get(e.messageId)?.owner;
      if (owner) changes.push({ ...e, ...owner });
    }
    await onStatus(changes, tx);
  }
}

/**
 * Receipts applied in memory: parts move forward, messages settle when all their parts have,
 * `read` is recorded once, digits kept. A receipt whose carrier id nobody owns is returned in
 * `early` (its submit is not stored yet).
 */
export function applyReceiptEvents(
  ctx: ReceiptContext,
  receipts: StatusEvent[],
): { results: ReceiptResult[]; early: StatusEvent[] } {
  const early: StatusEvent[] = [];
  const results: ReceiptResult[] = [];
  for (const event of receipts) {
    const key = keyOf(event.provider, event.providerMessageId);
    const messageId = ctx.owner.get(key);
    const m = messageId ? ctx.state.get(messageId) : undefined;
    if (!messageId || !m) {
      early.push(event);
      results.push({ event, outcome: 'early' });
      continue;
    }
    const siblings = ctx.parts.get(messageId) ?? [];
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
      ? advance(ctx.events, messageId, m, settled.status, event.at, settled.reason, event.detail)
      : partStatus === 'sent' && advance(ctx.events, messageId, m, 'sent', event.at, null);
    const digits = event.detail?.digits !== undefined;
    if (!moved && digits)
      addEvent(ctx.events, m, {
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
      addEvent(ctx.events, m, { messageId, status: 'read', reason: null, detail: null, at: event.at });
    }
    results.push({ event, messageId, outcome: changed || moved || read || digits ? 'applied' : 'unchanged' });
  }
  return { results, early };
}

export function reviveEvent(stored: unknown): StatusEvent {
  const e = stored as Omit<StatusEvent, 'at'> & { at: string };
  return { ...e, at: new Date(e.at) };
}
