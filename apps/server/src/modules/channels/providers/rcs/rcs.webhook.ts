/**
 * The RBM webhook, mounted at `/api/webhooks/rcs/events` (one POST URL for everything):
 * - the verification RBM makes when the URL is registered: `{clientToken, secret}` (with
 *   `X-Goog-Webhook-Type: verification`) answered 200 with the secret as plain text when the
 *   client token is ours, 403 otherwise;
 * - events in a Pub/Sub-style envelope, `message.data` = base64(JSON), signed in
 *   `X-Goog-Signature` = base64(HMAC-SHA512(client token, decoded data)). A missing or wrong
 *   signature is 401 and nothing is emitted. DELIVERED and READ become StatusEvents, IS_TYPING
 *   is ignored, a user's text (or chosen suggestion) becomes an InboundEvent.
 */
import crypto from 'node:crypto';
import { sanitizeText } from '@ecoa/shared';
import { AppError } from '../../../../platform/errors/app-error.ts';
import type { ProviderEvent, WebhookRequest, WebhookResponse, WebhookRoute } from '../../provider.ts';
import {
  CARRIER_WEBHOOK_PATH,
  type CarrierWebhookOptions,
  carrierId,
  e164,
  emitAll,
  header,
  isRecord,
  OK,
  parseJson,
  safeEqual,
  WEBHOOK_MAX_BYTES,
} from '../http-kit/webhook-kit.ts';

export const RCS_WEBHOOK_PATH = CARRIER_WEBHOOK_PATH;

export type RcsWebhookOptions = CarrierWebhookOptions & { agentId: string; clientToken: string };

export function rcsWebhookRoutes(options: RcsWebhookOptions): WebhookRoute[] {
  return [{ method: 'POST', path: RCS_WEBHOOK_PATH, handle: (request) => handle(request, options) }];
}

async function handle(request: WebhookRequest, options: RcsWebhookOptions): Promise<WebhookResponse> {
  if (request.rawBody.length > WEBHOOK_MAX_BYTES) throw new AppError('WEBHOOK_BODY_TOO_LARGE');
  const body = parseJson(request.rawBody);
  if (!isRecord(body)) throw new AppError('WEBHOOK_BODY_INVALID', undefined, { why: 'notObject' });
  const isVerification =
    header(request, 'x-goog-webhook-type')?.toLowerCase() === 'verification' ||
    (body.message === undefined && 'clientToken' in body && 'secret' in body);
  if (isVerification) return verification(body, options.clientToken);
  const data = isRecord(body.message) ? body.message.data : undefined;
  if (typeof data !== 'string') throw new AppError('WEBHOOK_BODY_INVALID', undefined, { why: 'noData' });
  const decoded = Buffer.from(data, 'base64');
  if (!signatureValid(header(request, 'x-goog-signature'), decoded, options.clientToken)) {
    throw new AppError('WEBHOOK_SIGNATURE_INVALID', undefined, { why: 'rcs' });
  }
  const payload = parseJson(decoded);
  if (!isRecord(payload)) throw new AppError('WEBHOOK_BODY_INVALID', undefined, { why: 'dataNotObject' });
  const publishTime = isRecord(body.message) ? body.message.publishTime : undefined;
  return emitAll(options.listener(), parseRbmPayload(payload, options, publishTime));
}

function verification(body: Record<string, unknown>, clientToken: string): WebhookResponse {
  const { clientToken: presented, secret } = body;
  if (typeof presented !== 'string' || !safeEqual(presented, clientToken)) {
    throw new AppError('WEBHOOK_CLIENT_TOKEN_INVALID');
  }
  if (typeof secret !== 'string' || !/^[\x21-\x7e]{1,1024}$/.test(secret)) {
    throw new AppError('WEBHOOK_BODY_INVALID', undefined, { why: 'noSecret' });
  }
  return { ...OK, body: secret };
}

function signatureValid(signature: string | undefined, data: Buffer, clientToken: string): boolean {
  if (!signature || !/^[A-Za-z0-9+/]{86}(==)?$/.test(signature)) return false;
  const expected = crypto.createHmac('sha512', clientToken).update(data).digest();
  return safeEqual(Buffer.from(signature, 'base64'), expected);
}

const STATUS_EVENTS = { DELIVERED: 'delivered', READ: 'read' } as const;

/** The event in one decoded delivery (one per delivery), if it is ours and one we act on. */
export function parseRbmPayload(
  payload: Record<string, unknown>,
  options: Pick<RcsWebhookOptions, 'provider' | 'agentId'>,
  publishTime?: unknown,
): ProviderEvent[] {
  // A partner-level webhook hears every agent of the partner: another agent's events are not ours.
  if (payload.agentId !== undefined && payload.agentId !== options.agentId) return [];
  const at = rfc3339(payload.sendTime) ?? rfc3339(publishTime);
  if (!at) return [];
  const eventType = payload.eventType;
  if (typeof eventType === 'string') {
    const messageId = carrierId(payload.messageId);
    if (eventType === 'TTL_EXPIRATION_REVOKED' && messageId) {
      return [
        {
          type: 'status',
          provider: options.provider,
          providerMessageId: messageId,
          status: 'expired',
          reason: 'RCS_TTL_EXPIRATION_REVOKED',
          at,
        },
      ];
    }
    const status = STATUS_EVENTS[eventType as keyof typeof STATUS_EVENTS];
    // IS_TYPING, SUBSCRIBE, … say nothing about a message's delivery.
    if (!status || !messageId) return [];
    return [{ type: 'status', provider: options.provider, providerMessageId: messageId, status, at }];
  }
  const from = e164(payload.senderPhoneNumber);
  const chosen = isRecord(payload.suggestionResponse) ? payload.suggestionResponse.text : undefined;
  const text = typeof payload.text === 'string' ? payload.text : typeof chosen === 'string' ? chosen : undefined;
  if (!from || text === undefined) return [];
  return [
    {
      type: 'inbound',
      provider: options.provider,
      from,
      text: sanitizeText(text.slice(0, 4096), { multiline: true }),
      at,
    },
  ];
}

function rfc3339(value: unknown): Date | undefined {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(value)
  ) {
    return undefined;
  }
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
