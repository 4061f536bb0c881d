/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64
 * of random bytes; a signature is `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under
 * the secret's decoded bytes. Several signatures go space-separated in one header (a rotation's
 * overlap): a receiver accepts the message when any of them verifies.
 */
import crypto from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new secret: 24 random bytes (192 bits), `whsec_<base64>`. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(24).toString('base64');
}

/** A new event id: `evt_` + 128 random bits (the `webhook-id` header: receivers deduplicate on it). */
export function newEventId(): string {
  return `evt_${crypto.randomBytes(16).toString('base64url')}`;
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for a body, signed by every secret given. */
export function webhookHeaders(
  secrets: string[],
  id: string,
  at: Date,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  };
}
