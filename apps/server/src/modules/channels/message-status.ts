/**
 * How a message's status moves. Carriers report out of order and twice (a `delivered` before
 * its `sent`, a webhook retried): a status only ever moves forward, and a final one stays.
 */
import type { MessageStatus } from '@ecoa/shared';

const RANK: Record<MessageStatus, number> = {
  queued: 0,
  submitting: 1,
  sent: 2,
  // The carrier may or may not have sent it (a bind dropped mid-request): a receipt can still settle it.
  unknown: 3,
  delivered: 4,
  failed: 4,
  expired: 4,
  // Never sent: the number opted out after the start, or the campaign was canceled first.
  opted_out: 4,
  canceled: 4,
};

export const FINAL_STATUSES: ReadonlySet<MessageStatus> = new Set([
  'delivered',
  'failed',
  'expired',
  'opted_out',
  'canceled',
]);

export function isFinal(status: MessageStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** Whether a message at `current` moves to `next` (never back, never from one final state to another). */
export function advances(current: MessageStatus, next: MessageStatus): boolean {
  return RANK[next] > RANK[current];
}

/**
 * A message of several parts (a long SMS) settles when every part has its last word: delivered
 * when all were, else the first part's failure or expiry (its reason kept), else `unknown` when
 * the carrier could not tell for some part. Before that it stays where it is (`sent`).
 */
export function combineParts(
  parts: { status: MessageStatus | null; reason: string | null }[],
): { status: MessageStatus; reason: string | null } | undefined {
  // Stryker disable next-line ConditionalExpression: equivalent, a null status is not final either
  if (parts.some((p) => p.status === null || !(isFinal(p.status) || p.status === 'unknown'))) return undefined;
  const bad =
    parts.find((p) => p.status === 'failed' || p.status === 'expired') ?? parts.find((p) => p.status === 'unknown');
  return bad ? { status: bad.status!, reason: bad.reason } : { status: 'delivered', reason: null };
}
