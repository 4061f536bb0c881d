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
