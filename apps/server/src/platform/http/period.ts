import { AppError } from '../errors/app-error.ts';

const DAY_MS = 86_400_000;
/**
 * What a period's ends may be: the years a `YYYY` date spells (the schemas take 4-digit years),
 * as instants. An offset can push `9999-12-31T23:00-05:00` into the year 10000, which the
 * database would refuse with a 500.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

function instant(text: string): Date {
  const at = new Date(text);
  const ms = at.getTime();
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > LATEST) throw new AppError('PERIOD_INVALID');
  return at;
}

/**
 * A query's `from`/`to` (ISO instants, both optional) as a checked half-open period: reversed or
 * empty → 400 `PERIOD_INVALID`; with `maxDays`, longer → 400 `PERIOD_TOO_LONG` `{maxDays}`, so
 * work that grows with the period (a bucket per hour or day) is bounded before it starts.
 * Missing ends: `to` = now, `from` = `to` − `defaultDays` (or unbounded when that is undefined).
 */
export function checkedPeriod(
  query: { from?: string; to?: string },
  options: { now: Date; defaultDays?: number; maxDays?: number },
): { from: Date | undefined; to: Date | undefined } {
  const explicitTo = query.to === undefined ? undefined : instant(query.to);
  const to = explicitTo ?? (options.defaultDays === undefined ? undefined : options.now);
  const from =
    query.from !== undefined
      ? instant(query.from)
      : options.defaultDays !== undefined && to
        ? new Date(to.getTime() - options.defaultDays * DAY_MS)
        : undefined;
  if (from && to && from.getTime() >= to.getTime()) throw new AppError('PERIOD_INVALID', undefined, { reversed: true });
  const { maxDays } = options;
  if (maxDays !== undefined && (to ?? options.now).getTime() - (from?.getTime() ?? -Infinity) > maxDays * DAY_MS)
    throw new AppError('PERIOD_TOO_LONG', { maxDays });
  return { from, to };
}

/** `checkedPeriod` with a default length: both ends are always there. */
export function boundedPeriod(
  query: { from?: string; to?: string },
  options: { now: Date; defaultDays: number; maxDays: number },
): { from: Date; to: Date } {
  const { from, to } = checkedPeriod(query, options);
  return { from: from as Date, to: to as Date };
}
