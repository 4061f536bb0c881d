/** A Brazilian number as the lists and opt-outs show it (`(11) 98765-4321`); any other as it came. */
export { formatBrazilianPhone as displayPhone } from '@ecoa/shared';

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
