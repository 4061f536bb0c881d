import { applyMask, MOBILE_PHONE_MASK } from '../../platform/masks';

/** A Brazilian number as the app shows it elsewhere (`(11) 98765-4321`); any other as it came. */
export function displayPhone(e164: string): string {
  const national = /^\+55(\d{10,11})$/.exec(e164)?.[1];
  return national ? applyMask(MOBILE_PHONE_MASK, national) : e164;
}

export const PERIODS = ['today', 'week', 'month', 'all'] as const;
export type Period = (typeof PERIODS)[number];

/** Where a period starts (ISO), counted back from `now`; undefined: no bound. */
export function periodStart(period: Period, now: Date = new Date()): string | undefined {
  if (period === 'all') return undefined;
  const start = new Date(now);
  if (period === 'today') start.setHours(0, 0, 0, 0);
  else start.setDate(start.getDate() - (period === 'week' ? 7 : 30));
  return start.toISOString();
}
