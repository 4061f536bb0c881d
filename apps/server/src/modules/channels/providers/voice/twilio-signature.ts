/**
 * X-Twilio-Signature: how a Twilio-compatible carrier signs each request it makes to us (status
 * callbacks, TwiML fetches, <Gather> actions). The string signed is the full URL the carrier
 * called (scheme, host, path and query) followed by every POST parameter, sorted by name, as
 * name + value with no separator; the signature is HMAC-SHA1 of it keyed with the account's auth
 * token, in base64. A name that repeats contributes each distinct value, sorted (what Twilio's
 * own libraries do). The simulator signs with `twilioSignature`; the adapter checks with
 * `isValidTwilioSignature`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Form parameters in the order received; a name may repeat (`StatusCallbackEvent`). */
export type FormParams = ReadonlyArray<readonly [string, string]>;

export const SIGNATURE_HEADER = 'x-twilio-signature';

export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  const byName = new Map<string, Set<string>>();
  for (const [name, value] of params) {
    const values = byName.get(name) ?? new Set<string>();
    values.add(value);
    byName.set(name, values);
  }
  let data = url;
  // Default sort: UTF-16 code unit order, as the reference implementations sort names.
  for (const name of [...byName.keys()].sort()) {
    for (const value of [...byName.get(name)!].sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * True when `signature` is the carrier's signature of this request. The URL is tried as given,
 * and with and without its port: carriers are not consistent about an explicit default port
 * (Twilio's libraries check both forms too). Compared in constant time.
 */
export function isValidTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: FormParams,
): boolean {
  if (!signature) return false;
  const given = Buffer.from(signature, 'utf8');
  let valid = false;
  for (const candidate of urlForms(url)) {
    const expected = Buffer.from(twilioSignature(authToken, candidate, params), 'utf8');
    // Every form is compared (no early exit), each in constant time.
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

function urlForms(url: string): string[] {
  const forms = new Set([url]);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [...forms];
  }
  const defaultPort = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : '';
  if (parsed.port === '' && defaultPort) {
    // `hostname` keeps an IPv6 address's brackets.
    forms.add(`${parsed.protocol}//${parsed.hostname}:${defaultPort}${parsed.pathname}${parsed.search}`);
  }
  const withoutPort = new URL(parsed.href);
  withoutPort.port = '';
  forms.add(withoutPort.href);
  return [...forms];
}

/** The form parameters of a raw `application/x-www-form-urlencoded` body, in order. */
export function parseForm(raw: Buffer | string): Array<[string, string]> {
  return [...new URLSearchParams(typeof raw === 'string' ? raw : raw.toString('utf8')).entries()];
}
