import { CAMPAIGN_TIME_ZONE, type CampaignTimeline } from '@ecoa/shared';

/**
 * Campaign times are São Paulo times: the wizard schedules and the sending window is read there,
 * so every date-time a campaign screen shows is in America/Sao_Paulo, whatever the browser's zone.
 * The label rule (as Brazilian platforms do for deadlines): a schedule always says "horário de
 * Brasília"; tables and the chart say it in their header only when the browser's zone differs.
 */
const WALL_CLOCK: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/** Date and time in São Paulo, short (`01/12/2026, 09:30` in pt-BR), or with seconds. */
export function saoPauloDateTime(iso: string, locale: string, options: { seconds?: boolean } = {}): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'short',
    timeStyle: options.seconds ? 'medium' : 'short',
    timeZone: CAMPAIGN_TIME_ZONE,
  }).format(new Date(iso));
}

/** Any Intl formatting of an instant, in São Paulo (the chart's axis). */
export function saoPauloFormat(iso: string, locale: string, options: Intl.DateTimeFormatOptions): string {
  return new Date(iso).toLocaleString(locale, { ...options, timeZone: CAMPAIGN_TIME_ZONE });
}

/** Whether the browser's clock reads São Paulo's time at `at` (Recife or Bahia do; Manaus or Lisbon do not). */
export function browserShowsSaoPaulo(at: Date = new Date()): boolean {
  const local = new Intl.DateTimeFormat('en-US', WALL_CLOCK).format(at);
  const saoPaulo = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: CAMPAIGN_TIME_ZONE }).format(at);
  return local === saoPaulo;
}

/** How the chart's axis writes a bucket's start: seconds for the fine buckets, the day for hours. */
const TICK: Record<CampaignTimeline['bucket'], Intl.DateTimeFormatOptions> = {
  second: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  '10s': { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  minute: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  '10min': { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  hour: { day: '2-digit', hour: '2-digit', hourCycle: 'h23' },
};

/** A timeline point's label on the chart's axis, in São Paulo, as fine as its bucket. */
export function timelineTick(iso: string, bucket: CampaignTimeline['bucket'], locale: string): string {
  return saoPauloFormat(iso, locale, TICK[bucket]);
}
