/**
 * The width of a campaign timeline's buckets, from how long the campaign ran (start → end, or now):
 * the finest width that keeps the chart between a handful and ~60 points, so a campaign that took
 * seconds draws a line, not a dot.
 */
import type { CampaignTimeline } from '@ecoa/shared';

export type TimelineBucket = CampaignTimeline['bucket'];

/** Each bucket, finest first, with the longest campaign it serves and its SQL interval. */
const BUCKETS: { bucket: TimelineBucket; upToMs: number; interval: string }[] = [
  { bucket: 'second', upToMs: 60_000, interval: '1 second' },
  { bucket: '10s', upToMs: 10 * 60_000, interval: '10 seconds' },
  { bucket: 'minute', upToMs: 60 * 60_000, interval: '1 minute' },
  { bucket: '10min', upToMs: 10 * 3_600_000, interval: '10 minutes' },
  { bucket: 'hour', upToMs: Number.POSITIVE_INFINITY, interval: '1 hour' },
];

export function timelineBucket(start: Date, end: Date): TimelineBucket {
  const ms = Math.max(0, end.getTime() - start.getTime());
  return BUCKETS.find((b) => ms <= b.upToMs)!.bucket;
}

/** The bucket's width as a PostgreSQL interval (for `date_bin`). */
export function bucketInterval(bucket: TimelineBucket): string {
  return BUCKETS.find((b) => b.bucket === bucket)!.interval;
}

const BUCKET_MS: Record<TimelineBucket, number> = {
  second: 1_000,
  '10s': 10_000,
  minute: 60_000,
  '10min': 600_000,
  hour: 3_600_000,
};
/** Beyond this many buckets the gaps are left as they are (a campaign resumed after weeks). */
const MAX_FILLED = 2_000;

type Point = { at: Date; sent: number; delivered: number; failed: number };

/**
 * The buckets with nothing in them as zeros, from one bucket before the first to one after the
 * last: the lines fall to zero where nothing happened instead of joining distant points, and a
 * campaign that ran within one bucket draws a peak rather than a lone dot.
 */
export function withEmptyBuckets(points: Point[], bucket: TimelineBucket): Point[] {
  if (points.length === 0) return points;
  const step = BUCKET_MS[bucket];
  const first = points[0]!.at.getTime() - step;
  const last = points[points.length - 1]!.at.getTime() + step;
  if ((last - first) / step > MAX_FILLED) return points;
  const byTime = new Map(points.map((p) => [p.at.getTime(), p]));
  const filled: Point[] = [];
  for (let t = first; t <= last; t += step)
    filled.push(byTime.get(t) ?? { at: new Date(t), sent: 0, delivered: 0, failed: 0 });
  return filled;
}
