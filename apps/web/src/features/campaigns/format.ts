import type { CampaignStatus, CampaignSummary } from '@ecoa/shared';

export const CAMPAIGN_STATUS_COLOR: Record<CampaignStatus, string> = {
  DRAFT: 'gray',
  SCHEDULED: 'violet',
  RUNNING: 'blue',
  PAUSED: 'yellow',
  COMPLETED: 'teal',
  CANCELED: 'gray',
  FAILED: 'red',
};

/** Statuses whose numbers still move: the screens poll while one is shown. */
export const LIVE_STATUSES: ReadonlySet<CampaignStatus> = new Set(['RUNNING', 'SCHEDULED', 'PAUSED']);

/** Done / total as a percentage (0 for an empty campaign). */
export function progressPercent(c: Pick<CampaignSummary, 'done' | 'total'>): number {
  return c.total > 0 ? Math.min(100, Math.round((c.done / c.total) * 100)) : 0;
}

/** Delivered among those that reached the carrier; null before anything was sent. */
export function deliveryRate(c: Pick<CampaignSummary, 'sent' | 'delivered'>): number | null {
  return c.sent > 0 ? c.delivered / c.sent : null;
}

export const canPause = (s: CampaignStatus) => s === 'RUNNING' || s === 'SCHEDULED';
export const canResume = (s: CampaignStatus) => s === 'PAUSED';
export const canCancel = (s: CampaignStatus) => s === 'RUNNING' || s === 'SCHEDULED' || s === 'PAUSED' || s === 'DRAFT';

/**
 * Whether a campaign's screen should keep polling: it may still send, or it ended less than an
 * hour ago with recipients still waiting for their carrier's receipt.
 */
export function stillMoving(
  c: { status: CampaignStatus; finishedAt: string | null; counts: { sent: number; submitting: number } },
  now = Date.now(),
): boolean {
  if (LIVE_STATUSES.has(c.status) || !c.finishedAt) return c.status !== 'DRAFT';
  const waiting = c.counts.sent + c.counts.submitting > 0;
  return waiting && now - new Date(c.finishedAt).getTime() < 3_600_000;
}
