/**
 * Spaces calls evenly to a rate (per second), shared by every dispatcher of this process that
 * asks under the same key (a campaign's maximum rate, a carrier's limit). Processes share a
 * global rate by each taking its share (rate ÷ live dispatching processes). A wait is abandoned
 * when the caller's signal aborts (the campaign was paused or canceled, the process stops).
 */
import { PacedTurns } from '../../platform/pacing/paced-turns.ts';

export class RatePacer {
  private readonly turns: PacedTurns;
  constructor(perSecond: number) {
    this.turns = new PacedTurns(perSecond);
  }

  setRate(perSecond: number): void {
    this.turns.setRate(perSecond);
  }

  /** Resolves when the caller may make its call; rejects (PaceAbortedError) when `signal` aborts first. */
  take(signal?: AbortSignal): Promise<void> {
    return this.turns.take(signal);
  }
}

export function createPacers() {
  const pacers = new Map<string, RatePacer>();
  return {
    /** The pacer for `key` at `perSecond`; null when there is no limit. */
    get(key: string, perSecond: number | null): RatePacer | null {
      if (!perSecond || perSecond <= 0) return null;
      const pacer = pacers.get(key);
      if (pacer) {
        pacer.setRate(perSecond);
        return pacer;
      }
      const created = new RatePacer(perSecond);
      pacers.set(key, created);
      return created;
    },
  };
}
