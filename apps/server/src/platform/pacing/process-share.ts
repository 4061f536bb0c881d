/**
 * This process's share of a rate that every dispatching process shares: a carrier's limit (an
 * SMPP bind's tps, WhatsApp's messages per second) or a campaign's maximum rate.
 *
 * The shares are whole sends per second and add up to the rate: with 30 tps and three processes,
 * 10 each; with 31, 11 + 10 + 10 (the lowest-ranked process takes the remainder); with 2 tps and
 * three processes, 1 + 1 + 0. Each process keeps its own share in every second (its pacers count
 * a sliding window), so the carrier never sees more than the rate in any second, whatever the
 * processes' phases: even spacing alone (rate ÷ processes each) let three processes' sends bunch
 * into 33 in one second.
 *
 * A process that joins sends nothing until every other process has surely counted it (`sending`
 * false: it is "warming"); the oldest process never waits, nor one that is alone. The
 * supervisor keeps the view current (campaigns.supervisor.ts).
 */
export type ShareView = {
  /** Live dispatching processes (at least 1). */
  workers: number;
  /** This process's place among them (0 = lowest id). */
  rank: number;
  /** False while this process has just joined and the others may not count it yet. */
  sending: boolean;
};

/** A rate's share for a process: whole per second (the rate itself when alone; under 1/s, all to rank 0). */
export function shareOf(rate: number, view: ShareView): number {
  if (!view.sending) return 0;
  if (view.workers <= 1) return rate;
  const whole = Math.floor(rate);
  if (whole < 1) return view.rank === 0 ? rate : 0;
  return Math.floor(whole / view.workers) + (view.rank < whole % view.workers ? 1 : 0);
}

/** A dispatching process on record (times in ms), and the carrier accounts it sends through. */
export type LiveWorker = {
  id: string;
  startedAt: number;
  viewedAt: number | null;
  heartbeatAt: number;
  carriers: string[];
};

/**
 * A joining process's row may commit a little after its `started_at`: another process counted it
 * surely when that one's view is this much later.
 */
const COMMIT_MARGIN_MS = 1_000;

/**
 * This process's place among the live ones, as the database shows them at `now`. It sends when it
 * is the oldest (or alone), or once every other process has counted it since it joined; one that
 * has not beaten for `staleMs` is taken for dead (or hung: it sends nothing while it hangs) and
 * is not waited for, so a restart after a crash does not wait for the dead row to expire.
 */
export function viewOf(workers: LiveWorker[], self: string, now: number, staleMs: number): ShareView {
  const rank = workers.findIndex((w) => w.id === self);
  // Not on record (its beat failed): count it, and send nothing.
  if (rank < 0) return { workers: workers.length + 1, rank: workers.length, sending: false };
  const me = workers[rank]!;
  const others = workers.filter((w) => w.id !== self);
  const oldest = others.every((w) => w.startedAt > me.startedAt || (w.startedAt === me.startedAt && w.id > me.id));
  const countedByAll = others.every(
    (w) => (w.viewedAt !== null && w.viewedAt >= me.startedAt + COMMIT_MARGIN_MS) || w.heartbeatAt < now - staleMs,
  );
  return { workers: workers.length, rank, sending: oldest || countedByAll };
}

/** A share of one rate: `of(rate)` is this process's part of it now (0: it must not send for the moment). */
export type RateShare = { of(rate: number): number };

export type ProcessShare = RateShare & {
  /** Among every live dispatching process (a campaign's maximum rate: every process works every campaign). */
  view(): ShareView;
  /**
   * Among the processes that send through the carrier account `key` (its limit is the
   * account's): a process with simulators of its own shares with nobody.
   */
  forCarrier(key: string): RateShare;
  update(view: ShareView, carriers?: ReadonlyMap<string, ShareView>): void;
};

/**
 * `alone`: the whole rate until a supervisor says otherwise (a process that dispatches nothing,
 * tests). `uncounted`: nothing until the supervisor's first pass has counted the processes (a
 * process that works jobs: its dispatch jobs may start before that pass).
 */
export function createProcessShare(initially: 'alone' | 'uncounted' = 'alone'): ProcessShare {
  let current: ShareView = { workers: 1, rank: 0, sending: initially === 'alone' };
  let carriers: ReadonlyMap<string, ShareView> = new Map();
  const atLeastOne = (view: ShareView) => ({ ...view, workers: Math.max(1, view.workers) });
  return {
    of: (rate) => shareOf(rate, current),
    view: () => current,
    // A carrier this process's supervisor has not counted for (none given): the view of all.
    forCarrier: (key) => ({ of: (rate) => shareOf(rate, carriers.get(key) ?? current) }),
    update(view, byCarrier = new Map()) {
      current = atLeastOne(view);
      carriers = new Map([...byCarrier].map(([key, v]) => [key, atLeastOne(v)]));
    },
  };
}
