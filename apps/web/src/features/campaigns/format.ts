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
