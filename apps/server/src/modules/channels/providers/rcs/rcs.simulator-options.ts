/**
 * What the RCS simulator can be told, and the same options over `POST /__simulator/options`
 * (checked by the schema below).
 */
import { z } from 'zod';
import type { SimulatorAddress } from '../http-kit/simulator-kit.ts';
import { callbackBehaviour, type SendCounters } from '../http-kit/simulator-tally.ts';

const outcome = z.union([
  z.enum(['delivered', 'read', 'not_capable']),
  /** The send is refused with this HTTP status and Google status name (500 INTERNAL, 403 PERMISSION_DENIED…). */
  z.strictObject({ httpError: z.number().int().min(400).max(599), status: z.string().regex(/^[A-Z_]{1,40}$/) }),
]);
export type RcsOutcome = z.infer<typeof outcome>;

export const rcsSimulatorRuntimeOptions = z.strictObject({
  /** Where RBM would post events (`…/api/webhooks/rcs/events`); null: nowhere. */
  callbackUrl: z.url().nullable(),
  latencyMs: z.number().int().min(0).max(60_000),
  /** Sends per second the agent may make (a one-second token bucket); above it 429. null: no limit. */
  throughputPerSecond: z.number().positive().nullable(),
  /** Shares of each fate among numbers not in numberOutcomes (by a hash of the number). */
  outcomeMix: z.strictObject({ delivered: z.number().min(0), read: z.number().min(0), notCapable: z.number().min(0) }),
  numberOutcomes: z.record(z.string().regex(/^\+\d{8,15}$/), outcome),
  /** Between the answer and the first event, and between events. */
  eventDelayMs: z.number().int().min(0).max(600_000),
  /** Events doubled, READ posted before DELIVERED, retried, or signed with another token than the client token. */
  ...callbackBehaviour,
  /** How long the access tokens it issues live. */
  tokenLifetimeSeconds: z.number().int().min(1).max(86_400),
});
export type RcsSimulatorRuntimeOptions = z.infer<typeof rcsSimulatorRuntimeOptions>;

export type RcsSimulatorOptions = RcsSimulatorRuntimeOptions &
  SimulatorAddress & {
    agentId: string;
    /** The webhook's client token: signs events, answers the verification. */
    webhookToken: string;
    clientEmail: string;
    /** Where the service account key file (token_uri pointing at the simulator) is written; null: a temporary file. */
    keyFile: string | null;
  };

export const RCS_SIMULATOR_DEFAULTS: RcsSimulatorOptions = {
  host: '127.0.0.1',
  port: 0,
  agentId: 'ecoa-simulador_abcd1234_agent@rbm.goog',
  webhookToken: 'simulator-rcs-client-token',
  clientEmail: 'rbm-simulator@ecoa-simulator.iam.gserviceaccount.com',
  keyFile: null,
  callbackUrl: null,
  latencyMs: 60,
  throughputPerSecond: 100,
  outcomeMix: { delivered: 0.5, read: 0.3, notCapable: 0.2 },
  numberOutcomes: {},
  eventDelayMs: 400,
  duplicates: false,
  outOfOrder: false,
  callbackRetries: 3,
  webhookSecret: null,
  tokenLifetimeSeconds: 3599,
};

/** Refusals are counted by HTTP status (`404` not RCS-capable, `409` a repeated messageId, `429` over the quota…). */
export type RcsSimulatorCounters = SendCounters & {
  /** Calls to the token endpoint, and the tokens it gave. */
  tokenRequests: number;
  tokensIssued: number;
};
