/**
 * Keeps call creation under the account's calls per second (CPS): each call starts `1000 / cps`
 * ms after the previous one, in the order submits arrive. Evenly spaced starts never burst, so a
 * carrier's own limiter (a token bucket of one second's calls) is not reached even when network
 * jitter bunches a few requests together. A waiting submit whose sending stopped (its signal
 * aborted) leaves the line without holding a slot. With several dispatching processes, this one
 * starts calls at its share of the account's CPS (process-share.ts).
 */
import { PacedTurns } from '../../../../platform/pacing/paced-turns.ts';
import type { RateShare } from '../../../../platform/pacing/process-share.ts';
import { CARRIER_MARGIN_MS } from '../http-kit/pacer.ts';

export type CallPacer = {
  /** Resolves at this call's start slot; rejects when the pacer is closed (PacerClosedError) or `signal` aborts (PaceAbortedError) first. */
  take(signal?: AbortSignal): Promise<void>;
  /** Calls started in the last second (for health). */
  startedLastSecond(): number;
  readonly callsPerSecond: number;
  close(): void;
};

export class PacerClosedError extends Error {
  constructor() {
    super('the voice provider is closing');
    this.name = 'PacerClosedError';
  }
}

export function createCallPacer(callsPerSecond: number, share?: RateShare): CallPacer {
  if (!(callsPerSecond > 0)) throw new Error(`calls per second must be positive (got ${callsPerSecond})`);
  const turns = new PacedTurns(
    share ? () => share.of(callsPerSecond) : callsPerSecond,
    () => performance.now(),
    CARRIER_MARGIN_MS,
  );
  const starts: number[] = [];

  return {
    callsPerSecond,
    async take(signal) {
      await turns.take(signal);
      starts.push(performance.now());
      if (starts.length > callsPerSecond * 2 + 10) starts.splice(0, starts.length - callsPerSecond - 10);
    },
    startedLastSecond() {
      const since = performance.now() - 1000;
      return starts.filter((t) => t > since).length;
    },
    close() {
      turns.close(() => new PacerClosedError());
    },
  };
}
