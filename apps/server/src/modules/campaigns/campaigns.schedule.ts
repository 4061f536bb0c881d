/**
 * The schedule rule (spec §5: "a schedule is always in the future"): a campaign the user chose
 * to schedule never starts at once because its date was left empty or has passed. Create, edit
 * and start all apply it; `SCHEDULE_GRACE_MS` (shared) absorbs a browser clock slightly ahead.
 */
import { SCHEDULE_GRACE_MS, type StartCampaignRequest } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';

/** A schedule as create and edit take it: null (send now) or a future instant. */
export function scheduleToStore(schedule: string | null | undefined, now: Date): Date | null {
  if (!schedule) return null;
  const at = new Date(schedule);
  if (at.getTime() < now.getTime() - SCHEDULE_GRACE_MS)
    throw new AppError('SCHEDULE_IN_PAST', { graceSeconds: SCHEDULE_GRACE_MS / 1000 });
  return at;
}

/**
 * When a start sends: null (at once) or the schedule it waits for. `stored` is the draft's;
 * `choice` is what the user chose in the start request, if they said.
 */
export function scheduleForStart(stored: Date | null, choice: StartCampaignRequest, now: Date): Date | null {
  if (choice?.mode === 'now') return null;
  const at = choice?.schedule ? new Date(choice.schedule) : stored;
  if (!at) {
    if (choice?.mode === 'schedule') throw new AppError('SCHEDULE_REQUIRED');
    return null;
  }
  if (at.getTime() < now.getTime() - SCHEDULE_GRACE_MS)
    throw new AppError('SCHEDULE_IN_PAST', { graceSeconds: SCHEDULE_GRACE_MS / 1000 });
  return at;
}
