/**
 * What every carrier webhook handler shares: constant-time comparison of secrets and
 * signatures, header lookup, and the rule for handing verified events to the channels service.
 * A refusal is thrown as an `AppError` of the catalogue (`WEBHOOK_…`, audience `carrier`): the
 * one error handler answers it in the house `{message, code}` format with its status.
 */
import crypto from 'node:crypto';
import { AppError } from '../../../../platform/errors/app-error.ts';
import type { ProviderEvent, WebhookRequest, WebhookResponse } from '../../provider.ts';

/** Carriers post small JSON documents; anything larger is refused before any work. */
export const WEBHOOK_MAX_BYTES = 1024 * 1024;

/** Equal bytes, compared in constant time (a length mismatch returns early: lengths are not secret). */
export function safeEqual(a: Buffer | string, b: Buffer | string): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

export function header(request: WebhookRequest, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const direct = request.headers[wanted];
  if (direct !== undefined) return direct;
  for (const [key, value] of Object.entries(request.headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

export const OK: WebhookResponse = { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' };

export type EventListener = import('../../provider.ts').EventListener;

/** Where each HTTP carrier's webhook sits below its `/api/webhooks/<carrier>` mount. */
export const CARRIER_WEBHOOK_PATH = '/events';

/** What every carrier's webhook routes are built with, beside the carrier's own secrets. */
export type CarrierWebhookOptions = {
  provider: string;
  listener: () => EventListener | undefined;
};

/**
 * Hands verified events to the listener, in the order received, before answering. When the
 * listener fails (the database is away) the answer is 503, so the carrier delivers again later;
 * events already handed over come again then, which the core tolerates (it keeps the highest state).
 * They are handed over one after another (the core queues each as it takes it) and awaited
 * together: each may wait a while for the batch that sent its message, and a carrier's patience
 * (~15 s) is for the whole notification, not per event.
 */
export async function emitAll(listener: EventListener | undefined, events: ProviderEvent[]): Promise<WebhookResponse> {
  if (events.length === 0) return OK;
  if (!listener) throw new AppError('WEBHOOK_NOT_READY');
  const stored = await Promise.allSettled(events.map((event) => listener(event)));
  if (stored.some((s) => s.status === 'rejected')) throw new AppError('WEBHOOK_NOT_STORED');
  return OK;
}

/** Parses JSON, or undefined. */
export function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A carrier's id for a message, kept only when it looks like one (printable ASCII, bounded). */
export function carrierId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\x21-\x7e]{1,256}$/.test(value) ? value : undefined;
}

/** `+<digits>` from a carrier's phone number (with or without the plus), or undefined. */
export function e164(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\+?([1-9]\d{7,14})$/.exec(value);
  return match ? `+${match[1]}` : undefined;
}
