/**
 * What the voice simulator can be told: its account, its latencies, its throughput limit and
 * the mix of outcomes its calls end with. The same shape is accepted by `setOptions` and by
 * `POST /__simulator/options` (validated by the schema below).
 */
import { z } from 'zod';

export const CALL_OUTCOMES = ['answered', 'busy', 'no-answer', 'failed'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** A fixed script for one destination, instead of the random mix. */
const destinationScript = z.object({
  outcome: z.enum(CALL_OUTCOMES).optional(),
  /** The keys pressed, one per <Gather> in turn ('' = none): '3' presses 3 at the first menu. */
  keys: z
    .string()
    .regex(/^[0-9*#]{0,20}$/)
    .optional(),
  /** The calls API refuses this destination with this Twilio error code (e.g. 21214). */
  refuseWith: z.number().int().min(10_000).max(99_999).optional(),
});

const weights = <T extends string>(keys: readonly [T, ...T[]]) =>
  z.partialRecord(z.enum(keys), z.number().min(0).max(1_000_000));

export const voiceSimulatorOptionsSchema = z.object({
  accountSid: z.string().min(1).max(64),
  authToken: z.string().min(1).max(256),
  /** The caller number the account owns; any other `From` is refused (21210). */
  from: z.string().regex(/^\+\d{10,15}$/),
  /** How long the calls API takes to answer a create (to exercise client timeouts). */
  apiLatencyMs: z.number().int().min(0).max(120_000),
  /** How long a phone rings before it is answered (or gives up: no-answer, busy). */
  ringMs: z.number().int().min(0).max(120_000),
  /** How long an answered call stays up after its TwiML has run. */
  callMs: z.number().int().min(0).max(600_000),
  /** Calls the API accepts per second (a token bucket of one second's calls); above it: 429. */
  callsPerSecond: z.number().min(0.1).max(10_000),
  /** Relative weights of the outcomes of calls no script covers. */
  outcomes: weights(CALL_OUTCOMES),
  /** Relative weights of the key pressed at a menu; '' is "no key". */
  keys: z.record(z.string().regex(/^[0-9*#]?$/), z.number().min(0).max(1_000_000)),
  /** Per destination (E.164): a fixed outcome, keys or refusal. */
  destinations: z.record(z.string(), destinationScript),
});

export type VoiceSimulatorOptions = z.infer<typeof voiceSimulatorOptionsSchema> & {
  /** Where to listen (loopback by default; port 0 picks a free port). */
  host?: string;
  port?: number;
};
export type DestinationScript = z.infer<typeof destinationScript>;

/** A small, lifelike default: mostly answered, a few busy or unanswered; menus answered with 1. */
export const VOICE_SIMULATOR_DEFAULTS: VoiceSimulatorOptions = {
  accountSid: 'AC00000000000000000000000000000000',
  authToken: 'voice-simulator-auth-token',
  from: '+551140040000',
  apiLatencyMs: 20,
  ringMs: 2000,
  callMs: 3000,
  callsPerSecond: 10,
  outcomes: { answered: 85, busy: 5, 'no-answer': 8, failed: 2 },
  keys: { '1': 60, '2': 25, '': 15 },
  destinations: {},
};
