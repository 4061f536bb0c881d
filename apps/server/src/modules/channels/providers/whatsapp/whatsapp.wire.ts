/**
 * The Cloud API's wire formats, written once for the adapter, the simulator, the tests, the
 * fuzz suite and the bench: the template send request, the Graph error, the webhook
 * notifications (statuses, inbound messages) and their `X-Hub-Signature-256`.
 */
import crypto from 'node:crypto';
import type { WhatsAppTemplate } from '../../provider.ts';

export const WHATSAPP_DISPLAY_NUMBER = '5511940000000';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed by the app secret>`. */
export function signWhatsAppBody(appSecret: string, body: Buffer | string): string {
  return `sha256=${crypto.createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** `POST /{version}/{phone-number-id}/messages`: a template message (business-initiated). */
export function templateRequest(to: string, template: WhatsAppTemplate) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(template.params.length > 0
        ? { components: [{ type: 'body', parameters: template.params.map((text) => ({ type: 'text', text })) }] }
        : {}),
    },
  };
}

/** `POST /{version}/{phone-number-id}/messages`: a free-form text (inside the customer-service window). */
export function textRequest(to: string, text: string) {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body: text } };
}

/** The Graph API's error body. */
export function graphError(code: number, message: string, details?: string, subcode?: number) {
  return {
    error: {
      message: `(#${code}) ${message}`,
      type: 'OAuthException',
      code,
      ...(subcode !== undefined ? { error_subcode: subcode } : {}),
      ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
      fbtrace_id: crypto.randomBytes(9).toString('base64url'),
    },
  };
}

export type WhatsAppWireStatus = 'sent' | 'delivered' | 'read' | 'failed';

function notification(phoneNumberId: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: WHATSAPP_DISPLAY_NUMBER, phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** One status change of one message, as the messages webhook carries it. */
export function statusNotification(input: {
  phoneNumberId: string;
  wamid: string;
  status: WhatsAppWireStatus;
  /** Unix seconds. */
  timestamp: number;
  recipient: string;
  error?: { code: number; title: string };
}) {
  return notification(input.phoneNumberId, {
    statuses: [
      {
        id: input.wamid,
        status: input.status,
        timestamp: String(input.timestamp),
        recipient_id: input.recipient,
        ...(input.status !== 'failed'
          ? {
              conversation: { id: crypto.randomBytes(16).toString('hex'), origin: { type: 'marketing' } },
              pricing: { billable: true, pricing_model: 'CBP', category: 'marketing' },
            }
          : {}),
        ...(input.error
          ? {
              errors: [
                {
                  code: input.error.code,
                  title: input.error.title,
                  message: input.error.title,
                  error_data: { details: input.error.title },
                },
              ],
            }
          : {}),
      },
    ],
  });
}

/** A text a WhatsApp user sent to the business number. */
export function textMessageNotification(input: {
  phoneNumberId: string;
  from: string;
  text: string;
  wamid: string;
  timestamp: number;
  name?: string;
}) {
  return notification(input.phoneNumberId, {
    contacts: [{ profile: { name: input.name ?? 'Cliente' }, wa_id: input.from }],
    messages: [
      {
        from: input.from,
        id: input.wamid,
        timestamp: String(input.timestamp),
        type: 'text',
        text: { body: input.text },
      },
    ],
  });
}

/** A message id the way Meta writes them (`wamid.` + base64). */
export function newWamid(): string {
  return `wamid.${crypto.randomBytes(30).toString('base64')}`;
}
