import { PaceAbortedError, PacedTurns } from '../../../../platform/pacing/paced-turns.ts';
import type { RateShare } from '../../../../platform/pacing/process-share.ts';
import { submitStopped } from '../../provider.ts';

/**
 * The carrier counts by arrival: a send that reached it late must not make the next second's one
 * too many. 100 ms of jitter on the way (50 was not enough for three processes on two loaded
 * cores); it costs ~9 % of the limit when the limit is what holds the sending back.
 */
export const CARRIER_MARGIN_MS = 100;

/**
 * Client-side throughput limit for an HTTP carrier API (WhatsApp's per-number throughput, RBM's
 * per-agent quota). Sends are spaced evenly, one every 1000/perSecond ms, never in bursts: the
 * carrier's own limiter (a token bucket holding about a second of sends) then never sees more
 * than it allows, even when network jitter bunches a few requests together on the way.
 *
 * With several dispatching processes the limit is the carrier's, for all of them: this process
 * sends at its share (process-share.ts), and no second (plus a margin for arrival jitter) holds
 * more than that share.
 */
export class SendPacer {
  private readonly turns: PacedTurns;
  /** When recent sends started (ms), oldest first, for health's `tpsInUse`. */
  private readonly starts: number[] = [];
  private startsHead = 0;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
    share?: RateShare,
  ) {
    if (!(perSecond > 0)) throw new RangeError('perSecond must be > 0');
    this.turns = new PacedTurns(share ? () => share.of(perSecond) : perSecond, now, CARRIER_MARGIN_MS);
  }

  /**
   * Resolves when this send may start; callers are served in call order. Rejects with
   * PaceAbortedError when `signal` aborts first (the sending stopped: nothing was sent).
   */
  async waitTurn(signal?: AbortSignal): Promise<void> {
    await this.turns.take(signal);
    const started = this.now();
    this.starts.push(started);
    this.prune(started);
  }

  /** Sends started during the last second. */
  inUse(): number {
    this.prune(this.now());
    return this.starts.length - this.startsHead;
  }

  private prune(now: number): void {
    const since = now - 1000;
    while (this.startsHead < this.starts.length && this.starts[this.startsHead]! < since) this.startsHead++;
    if (this.startsHead > 1024) {
      this.starts.splice(0, this.startsHead);
      this.startsHead = 0;
    }
  }
}

/** Waits for a send's turn; a sending that stopped meanwhile ends as "not sent" (submitStopped). */
export async function waitOrStopped(
  pacer: SendPacer,
  signal: AbortSignal | undefined,
  provider: string,
): Promise<void> {
  try {
    await pacer.waitTurn(signal);
  } catch (err) {
    if (err instanceof PaceAbortedError) throw submitStopped(provider);
    throw err;
  }
  // Stopped right as the turn came: the request is not written.
  if (signal?.aborted) throw submitStopped(provider);
}
