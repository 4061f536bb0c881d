/**
 * The dispatcher's paces: calls spaced evenly at this process's share of a rate (a campaign's
 * maximum rate, a carrier's limit), shared by every loop of this process that asks under the same
 * key. Processes share a global rate by each keeping its share (process-share.ts): a share of 0
 * (this process has just joined) gives no turn until it rises. A wait is abandoned when the
 * caller's signal aborts (the campaign was paused or canceled, the process stops).
 */
import { PacedTurns } from '../../platform/pacing/paced-turns.ts';
import type { RateShare } from '../../platform/pacing/process-share.ts';

export type RatePacer = Pick<PacedTurns, 'take'>;

export function createPacers() {
  type Pacer = { rate: number; share: RateShare; turns: PacedTurns };
  const pacers = new Map<string, Pacer>();
  return {
    /** The pacer for `key` at this process's `share` of `perSecond`; null when there is no limit. */
    get(key: string, perSecond: number | null, share: RateShare): RatePacer | null {
      if (!perSecond || perSecond <= 0) return null;
      const known = pacers.get(key);
      if (known) {
        known.rate = perSecond;
        known.share = share;
        return known.turns;
      }
      // The rate and share are read at each turn: a later get() may change either.
      const entry: Pacer = { rate: perSecond, share, turns: new PacedTurns(() => entry.share.of(entry.rate)) };
      pacers.set(key, entry);
      return entry.turns;
    },
  };
}
