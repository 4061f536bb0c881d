/**
 * Spaces calls evenly to a rate (per second), shared by every dispatcher of this process that
 * asks under the same key (a campaign's maximum rate, a carrier's limit). Processes share a
 * global rate by each taking its share (rate ÷ live dispatching processes).
 */
export class RatePacer {
  private next = 0;
  constructor(private perSecond: number) {}

  setRate(perSecond: number): void {
    this.perSecond = perSecond;
  }

  /** Resolves when the caller may make its call. */
  async take(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.perSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
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
