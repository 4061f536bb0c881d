/**
 * The WhatsApp messages webhook, mounted at `/api/webhooks/whatsapp/events`:
 * - `GET`: Meta's subscription handshake (`hub.mode=subscribe`, `hub.verify_token`) answered with
 *   `hub.challenge` as text; a wrong token is 403.
 * - `POST`: notifications signed with `X-Hub-Signature-256` (HMAC-SHA256 of the raw body, keyed
 *   by the app secret). A missing or wrong signature is 401 and nothing is emitted. `statuses[]`
 *   become StatusEvents with the carrier's timestamp (duplicates and disorder are passed on as
 *   received: the core keeps the highest state); text `messages[]` become InboundEvents.
 *
 * A signed notification is Meta's: anything in it we do not understand is skipped, never
 * refused, or Meta would deliver it again for days.
 */
import crypto from 'node:crypto';
import { sanitizeText } from '@ecoa/shared';
import { AppError } from '../../../../platform/errors/app-error.ts';
import type { ProviderEvent, StatusEvent, WebhookRequest, WebhookResponse, WebhookRoute } from '../../provider.ts';
import {
  asArray,
  CARRIER_WEBHOOK_PATH,
  type CarrierWebhookOptions,
  carrierId,
  e164,
  emitAll,
  header,
  isRecord,
  parseJson,
  safeEqual,
  WEBHOOK_MAX_BYTES,
} from '../http-kit/webhook-kit.ts';
import { errorCode, whatsappReason } from './whatsapp.errors.ts';

export const WHATSAPP_WEBHOOK_PATH = CARRIER_WEBHOOK_PATH;

export type WhatsAppWebhookOptions = CarrierWebhookOptions & {
  appSecret: string;
  verifyToken: string;
  phoneNumberId: string;
};

export function whatsappWebhookRoutes(options: WhatsAppWebhookOptions): WebhookRoute[] {
  return [
    { method: 'GET', path: WHATSAPP_WEBHOOK_PATH, handle: async (request) => handshake(request, options) },
    { method: 'POST', path: WHATSAPP_WEBHOOK_PATH, handle: (request) => notification(request, options) },
  ];
}

function handshake(request: WebhookRequest, options: WhatsAppWebhookOptions): WebhookResponse {
  // A repeated parameter may reach us as an array: only a single string counts.
  const param = (name: string) => {
    const value: unknown = request.query[name];
    return typeof value === 'string' ? value : '';
  };
  const mode = param('hub.mode');
  const token = param('hub.verify_token');
  const challenge = param('hub.challenge');
  if (mode !== 'subscribe' || !safeEqual(token, options.verifyToken)) {
    throw new AppError('WEBHOOK_VERIFY_TOKEN_INVALID');
  }
  if (!/^[\x21-\x7e]{1,512}$/.test(challenge)) throw new AppError('WEBHOOK_CHALLENGE_INVALID');
  return { status: 200, contentType: 'text/plain; charset=utf-8', body: challenge };
}

async function notification(request: WebhookRequest, options: WhatsAppWebhookOptions): Promise<WebhookResponse> {
  if (request.rawBody.length > WEBHOOK_MAX_BYTES) throw new AppError('WEBHOOK_BODY_TOO_LARGE');
  if (!signatureValid(request, options.appSecret)) {
    throw new AppError('WEBHOOK_SIGNATURE_INVALID', undefined, { why: 'whatsapp' });
  }
  const body = parseJson(request.rawBody);
  if (!isRecord(body)) throw new AppError('WEBHOOK_BODY_INVALID', undefined, { why: 'notObject' });
  return emitAll(options.listener(), parseWhatsAppNotification(body, options.provider, options.phoneNumberId));
}

function signatureValid(request: WebhookRequest, appSecret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header(request, 'x-hub-signature-256') ?? '');
  if (!match) return false;
  const expected = crypto.createHmac('sha256', appSecret).update(request.rawBody).digest();
  return safeEqual(Buffer.from(match[1]!, 'hex'), expected);
}

/** The events in one notification that belong to our phone number, in document order. */
export function parseWhatsAppNotification(
  body: Record<string, unknown>,
  provider: string,
  phoneNumberId: string,
): ProviderEvent[] {
  const events: ProviderEvent[] = [];
  for (const entry of asArray(body.entry)) {
    if (!isRecord(entry)) continue;
    for (const change of asArray(entry.changes)) {
      if (!isRecord(change) || !isRecord(change.value)) continue;
      const value = change.value;
      // One app can serve several business numbers: another number's events are not ours.
      const metadata = isRecord(value.metadata) ? value.metadata : {};
      if (metadata.phone_number_id !== undefined && metadata.phone_number_id !== phoneNumberId) continue;
      for (const status of asArray(value.statuses)) {
        const event = statusEvent(status, provider);
        if (event) events.push(event);
      }
      for (const message of asArray(value.messages)) {
        const event = inboundEvent(message, provider);
        if (event) events.push(event);
      }
    }
  }
  return events;
}

const STATUSES = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' } as const;

function statusEvent(item: unknown, provider: string): StatusEvent | undefined {
  if (!isRecord(item)) return undefined;
  const id = carrierId(item.id);
  const status = typeof item.status === 'string' ? STATUSES[item.status as keyof typeof STATUSES] : undefined;
  const at = unixSeconds(item.timestamp);
  if (!id || !status || !at) return undefined;
  const event: StatusEvent = { type: 'status', provider, providerMessageId: id, status, at };
  if (status === 'failed') {
    const first = asArray(item.errors)[0];
    const code = isRecord(first) ? errorCode(first.code) : undefined;
    event.reason = code === undefined ? 'WHATSAPP_FAILED' : whatsappReason(code);
  }
  return event;
}

function inboundEvent(item: unknown, provider: string): ProviderEvent | undefined {
  if (!isRecord(item) || item.type !== 'text' || !isRecord(item.text)) return undefined;
  const from = e164(item.from);
  const at = unixSeconds(item.timestamp);
  const body = item.text.body;
  if (!from || !at || typeof body !== 'string') return undefined;
  // WhatsApp caps a text at 4096 characters; more is not a message we store.
  const text = sanitizeText(body.slice(0, 4096), { multiline: true });
  return { type: 'inbound', provider, from, text, at };
}

/** Meta writes times as unix seconds in a string. */
function unixSeconds(value: unknown): Date | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (!/^\d{1,12}$/.test(String(value))) return undefined;
  const at = new Date(Number(value) * 1000);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
