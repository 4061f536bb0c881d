/**
 * The fuzz harness every reader of outside input goes through (list files, opt-out files,
 * profile pictures; later SMPP PDUs, webhooks, audio files, CNPJ zips). For each generated
 * input it feeds the real path (the HTTP route, the job) and checks the three promises:
 * - the input is accepted, or refused with one of the reader's specific error codes (never a
 *   500, never a generic "internal error");
 * - the process never dies (an unhandled error fails the test run too);
 * - memory stays bounded: the process's RSS never grows past its starting point + the bound.
 * Bounded in time: each target stops after its time limit or its number of runs.
 * Reproduce a failure with the seed and path fast-check prints: FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

export type FuzzOutcome = { accepted: true } | { refused: string };

/** Inputs are bytes, or bytes with how to deliver them (signed or not, which status). */
export type FuzzTarget<T = Buffer> = {
  name: string;
  inputs: fc.Arbitrary<T>;
  /** Feeds one input through the real path and says how it ended. */
  feed(input: T): Promise<FuzzOutcome>;
  /** The codes that count as a clear refusal of a bad input. */
  codes: readonly string[];
};

/**
 * `minRuns` (default 11): inputs fed even past the time limit, so a loaded machine (CI runs three files at a
 * time beside servers being killed and restarted) still exercises the reader instead of failing
 * for having had the time of only a few inputs.
 */
export type FuzzBudget = { runs: number; timeLimitMs: number; maxRssGrowthMb: number; minRuns?: number };

/** CI runs a fixed seed (a red build is reproducible); FUZZ_SEED explores others. */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20_261_123;

export async function fuzz<T>(
  target: FuzzTarget<T>,
  budget: FuzzBudget,
): Promise<{ runs: number; peakGrowthMb: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const outcomes = new Map<string, number>();
  let runs = 0;
  const check = async (input: T) => {
    runs++;
    const outcome = await target.feed(input);
    peak = Math.max(peak, process.memoryUsage().rss);
    const key = 'accepted' in outcome ? 'accepted' : outcome.refused;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    if ('refused' in outcome) expect(target.codes, `${target.name}: a specific error code`).toContain(outcome.refused);
    expect((peak - baseline) / 2 ** 20, `${target.name}: RSS growth (MB)`).toBeLessThanOrEqual(budget.maxRssGrowthMb);
  };
  // fast-check stops waiting for the input in progress when the time limit strikes, but its
  // feed goes on: it is awaited (and checked) here, so it never runs into the next test or the
  // server's close.
  let inFlight: Promise<void> = Promise.resolve();
  const property = fc.asyncProperty(target.inputs, (input) => {
    inFlight = check(input);
    return inFlight;
  });
  const settleInFlight = () =>
    inFlight.catch((err: unknown) => {
      throw new Error(`${target.name}: the input cut off by the time limit failed: ${(err as Error).message}`, {
        cause: err,
      });
    });
  try {
    const details = await fc.check(property, {
      seed,
      path: process.env.FUZZ_PATH,
      numRuns: budget.runs,
      interruptAfterTimeLimit: budget.timeLimitMs,
      markInterruptAsFailure: false,
      endOnFailure: true,
    });
    // fast-check counts a run the time limit cut before its first input ended as failed (it
    // happens when one input takes longer than the whole limit on a loaded machine): that is no
    // counterexample, and the minimum below feeds inputs anyway.
    if (details.failed && details.counterexample !== null)
      throw new Error(
        `${target.name}: failed on ${fc.stringify(details.counterexample)} (FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath}): ${String(details.errorInstance)}`,
        { cause: details.errorInstance },
      );
    await settleInFlight();
    const missing = Math.min(budget.minRuns ?? 11, budget.runs) - runs;
    // The rest of the minimum, with the next seed (the same one would replay the inputs just fed).
    if (missing > 0) await fc.assert(property, { seed: seed + 1, numRuns: missing, endOnFailure: true });
  } finally {
    clearInterval(sampler);
  }
  const peakGrowthMb = Math.round((peak - baseline) / 2 ** 20);
  console.log(
    `[fuzz] ${target.name}: ${runs} inputs, peak RSS +${peakGrowthMb} MB, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`,
  );
  return { runs, peakGrowthMb };
}
