/**
 * A carrier's call status, mapped to Ecoa's message statuses. Nothing of the carrier's vocabulary
 * leaves this file but the reason codes (`VOICE_BUSY`…), which are Ecoa's own.
 *
 * Every step before the end is `sent` (the core keeps a message's highest state, so repeating
 * `sent` is harmless, and one that arrives before the submit's answer was stored still tells the
 * core the call exists). A call that ends `completed` was answered (Twilio ends an unanswered call
 * as busy, no-answer, failed or canceled), so it is `delivered`, with how long it lasted.
 */
import type { StatusEvent } from '../../provider.ts';

type Mapped = Pick<StatusEvent, 'status' | 'reason' | 'detail'>;

const FAILURES: Record<string, string> = {
  busy: 'VOICE_BUSY',
  'no-answer': 'VOICE_NO_ANSWER',
  failed: 'VOICE_FAILED',
  canceled: 'VOICE_CANCELED',
};
const IN_PROGRESS = new Set(['queued', 'initiated', 'ringing', 'in-progress']);
/** A day: no call lasts longer (Twilio's own limit is four hours). */
const MAX_DURATION_SECONDS = 86_400;

/** The status this `CallStatus` means, or null for a status no Twilio-compatible carrier sends. */
export function mapCallStatus(callStatus: string | undefined, callDuration: string | undefined): Mapped | null {
  if (callStatus === undefined) return null;
  if (IN_PROGRESS.has(callStatus)) return { status: 'sent' };
  const reason = FAILURES[callStatus];
  if (reason) return { status: 'failed', reason };
  if (callStatus !== 'completed') return null;
  const duration = /^\d{1,6}$/.test(callDuration ?? '') ? Number(callDuration) : null;
  return duration !== null && duration <= MAX_DURATION_SECONDS
    ? { status: 'delivered', detail: { durationSeconds: duration } }
    : { status: 'delivered' };
}

/**
 * When the carrier says the event happened (`Timestamp`, RFC 2822), if that is a believable time
 * (within a week of ours); otherwise our own clock's now.
 */
export function eventTime(timestamp: string | undefined, now: Date): Date {
  if (timestamp === undefined || timestamp.length > 64) return now;
  const at = Date.parse(timestamp);
  return Number.isFinite(at) && Math.abs(at - now.getTime()) < 7 * 86_400_000 ? new Date(at) : now;
}
