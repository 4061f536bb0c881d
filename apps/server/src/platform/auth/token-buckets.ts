/**
 * Token buckets by id (the guard's rate limit per API key), in this process's memory: each
 * server process keeps its own buckets, so N processes allow up to N times the rate in total.
 *
 *   const buckets = createTokenBuckets(clock);
 *   const verdict = buckets.take(apiKeyId, { perSecond: 10, burst: 50 });
 *   if (!verdict.allowed) … verdict.retryAfterSeconds …
 *
 * A bucket holds up to `burst` tokens and refills `perSecond` a second; a request takes one.
 * Time comes from the injected clock, so tests move it instead of sleeping.
 */
import type { Clock } from '../clock/clock.ts';

export type BucketRate = { perSecond: number; burst: number };

export type BucketVerdict = {
  allowed: boolean;
  /** The bucket's size (`RateLimit-Limit`). */
  limit: number;
  /** Whole tokens left after this request (`RateLimit-Remaining`). */
  remaining: number;
  /** Seconds until the bucket is full again (`RateLimit-Reset`). */
  resetSeconds: number;
  /** When refused: seconds until one token is back (`Retry-After`); 0 when allowed. */
  retryAfterSeconds: number;
};

type Bucket = { tokens: number; at: number; rate: BucketRate };

/** Past this many buckets, the full ones are dropped (a full bucket is the same as none). */
const PRUNE_ABOVE = 10_000;

export function createTokenBuckets(clock: Clock) {
  const buckets = new Map<string, Bucket>();

  function refilled(bucket: Bucket | undefined, rate: BucketRate, now: number): number {
    if (!bucket) return rate.burst;
    return Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.perSecond);
  }

  function prune(now: number) {
    for (const [id, bucket] of buckets) {
      if (refilled(bucket, bucket.rate, now) >= bucket.rate.burst) buckets.delete(id);
    }
  }

  return {
    take(id: string, rate: BucketRate): BucketVerdict {
      const now = clock.now().getTime();
      if (buckets.size > PRUNE_ABOVE) prune(now);
      let tokens = refilled(buckets.get(id), rate, now);
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      buckets.set(id, { tokens, at: now, rate });
      return {
        allowed,
        limit: rate.burst,
        remaining: Math.floor(tokens),
        resetSeconds: Math.ceil((rate.burst - tokens) / rate.perSecond),
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rate.perSecond)),
      };
    },
    /** How many buckets are held (tests). */
    size: () => buckets.size,
  };
}
export type TokenBuckets = ReturnType<typeof createTokenBuckets>;
