/**
 * What the WhatsApp simulator can be told: its credentials, latency, throughput, the fate of
 * each number, and how its webhooks misbehave (duplicated, out of order, badly signed). The
 * same options over `POST /__simulator/options` (checked by the schema below).
 */
import { z } from 'zod';
import type { DestinationCount } from '../http-kit/simulator-kit.ts';

const outcome = z.union([
  z.enum(['delivered', 'read', 'not_on_whatsapp', 'reengagement']),
  /** The send itself is refused with this Graph error code (131000, 190, 132001, …). */
  z.strictObject({ apiError: z.number().int().min(0) }),
]);
export type WhatsAppOutcome = z.infer<typeof outcome>;

export const whatsappSimulatorRuntimeOptions = z.strictObject({
  /** Where Meta would post the messages webhook (`…/api/webhooks/whatsapp/events`); null: nowhere. */
  callbackUrl: z.url().nullable(),
  /** Added before every API answer. */
  latencyMs: z.number().int().min(0).max(60_000),
  /** Sends per second the number takes (a one-second token bucket); above it, error 130429. null: no limit. */
  throughputPerSecond: z.number().positive().nullable(),
  /** Shares of each fate among numbers not listed in numberOutcomes (picked by a hash of the number). */
  outcomeMix: z.strictObject({
    delivered: z.number().min(0),
    read: z.number().min(0),
    notOnWhatsApp: z.number().min(0),
    reengagement: z.number().min(0),
  }),
  /** The fate of given numbers (E.164), whatever the mix says. */
  numberOutcomes: z.record(z.string().regex(/^\+\d{8,15}$/), outcome),
  /** Between the answer and the first status webhook, and between status webhooks. */
  statusDelayMs: z.number().int().min(0).max(600_000),
  /** Every status webhook posted twice. */
  duplicates: z.boolean(),
  /** A message's status webhooks posted last first (read, delivered, sent). */
  outOfOrder: z.boolean(),
  /** Deliveries retried on a 5xx or no answer (Meta retries for days; the simulator briefly). */
  callbackRetries: z.number().int().min(0).max(10),
  /** Signs webhooks with this secret instead of the app secret (a misconfigured app). */
  webhookSecret: z.string().min(1).nullable(),
  /** Approved templates and their body parameter counts; null: any name is approved. */
  knownTemplates: z.record(z.string(), z.number().int().min(0)).nullable(),
});
export type WhatsAppSimulatorRuntimeOptions = z.infer<typeof whatsappSimulatorRuntimeOptions>;

export type WhatsAppSimulatorOptions = WhatsAppSimulatorRuntimeOptions & {
  host: string;
  port: number;
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
};

export const WHATSAPP_SIMULATOR_DEFAULTS: WhatsAppSimulatorOptions = {
  host: '127.0.0.1',
  port: 0,
  apiVersion: 'v21.0',
  phoneNumberId: '106540352242922',
  accessToken: 'simulator-whatsapp-access-token',
  appSecret: 'simulator-whatsapp-app-secret',
  verifyToken: 'simulator-whatsapp-verify-token',
  callbackUrl: null,
  latencyMs: 80,
  throughputPerSecond: 80,
  outcomeMix: { delivered: 0.55, read: 0.35, notOnWhatsApp: 0.07, reengagement: 0.03 },
  numberOutcomes: {},
  statusDelayMs: 400,
  duplicates: false,
  outOfOrder: false,
  callbackRetries: 3,
  webhookSecret: null,
  knownTemplates: null,
};

export type WhatsAppSimulatorCounters = {
  /** Every call to the messages endpoint. */
  requests: number;
  /** Messages taken (a wamid given). */
  accepted: number;
  /** Refused calls by Graph error code (`130429` above the throughput, `190` a bad token, …). */
  rejected: Record<string, number>;
  /** Messages taken that repeat the same template and parameters to the same number. */
  duplicates: number;
  destinations: Record<string, DestinationCount>;
  /** Webhook posts: taken (2xx) or not (after the retries). */
  callbacks: { delivered: number; failed: number; lastFailureStatus: number | null };
  inbound: number;
};
