/**
 * What the WhatsApp simulator can be told: its credentials, latency, throughput, the fate of
 * each number, and how its webhooks misbehave (duplicated, out of order, badly signed). The
 * same options over `POST /__simulator/options` (checked by the schema below).
 */
import { z } from 'zod';
import type { SimulatorAddress } from '../http-kit/simulator-kit.ts';
import { callbackBehaviour, type SendCounters } from '../http-kit/simulator-tally.ts';

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
  /** Status webhooks doubled, posted last first (read, delivered, sent), retried, or signed with another secret than the app secret. */
  ...callbackBehaviour,
  /** Approved templates and their body parameter counts; null: any name is approved. */
  knownTemplates: z.record(z.string(), z.number().int().min(0)).nullable(),
});
export type WhatsAppSimulatorRuntimeOptions = z.infer<typeof whatsappSimulatorRuntimeOptions>;

export type WhatsAppSimulatorOptions = WhatsAppSimulatorRuntimeOptions &
  SimulatorAddress & {
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

/** Refusals are counted by Graph error code (`130429` above the throughput, `190` a bad token, …). */
export type WhatsAppSimulatorCounters = SendCounters;
