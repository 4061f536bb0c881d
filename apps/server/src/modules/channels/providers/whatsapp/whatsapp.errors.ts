/**
 * The Cloud API's error codes (Graph API errors, synchronous or in a failed status webhook) as
 * Ecoa's reasons: `WHATSAPP_<code>`, whether the same send may succeed later, and whether the
 * code says something about the account rather than one message (health's lastError).
 *
 * Codes from Meta's "Error codes" reference. Retryable: only what passes with time alone
 * (throttling, Meta's own outages). Not retryable: what the recipient, the template or the
 * account must change first. The spam and marketing limits (131048, 131049) pass with time too,
 * but re-sending into them lowers the number's quality rating: they fail the message instead.
 */
export type WhatsAppErrorKind = { retryable: boolean; account: boolean; title: string };

const CODES: Record<number, WhatsAppErrorKind> = {
  0: { retryable: false, account: true, title: 'authentication failed' },
  1: { retryable: true, account: false, title: 'unknown API error' },
  2: { retryable: true, account: false, title: 'API service temporarily unavailable' },
  3: { retryable: false, account: true, title: 'the app lacks this capability or permission' },
  4: { retryable: true, account: false, title: 'too many API calls from the app' },
  10: { retryable: false, account: true, title: 'permission denied' },
  100: { retryable: false, account: false, title: 'invalid parameter' },
  190: { retryable: false, account: true, title: 'the access token is invalid or expired' },
  368: { retryable: false, account: true, title: 'temporarily blocked for policy violations' },
  80007: { retryable: true, account: false, title: 'the business account hit its rate limit' },
  130429: { retryable: true, account: false, title: 'the phone number hit its throughput limit' },
  130472: { retryable: false, account: false, title: "the user's number is part of an experiment" },
  130497: { retryable: false, account: false, title: 'the business cannot message users in this country' },
  131000: { retryable: true, account: false, title: 'something went wrong at Meta' },
  131005: { retryable: false, account: true, title: 'access denied' },
  131008: { retryable: false, account: false, title: 'a required parameter is missing' },
  131009: { retryable: false, account: false, title: 'a parameter value is not valid' },
  131016: { retryable: true, account: false, title: 'the service is unavailable' },
  131021: { retryable: false, account: false, title: 'the recipient is the sender' },
  131026: { retryable: false, account: false, title: 'undeliverable: not a WhatsApp user, or an old app' },
  131031: { retryable: false, account: true, title: 'the business account is locked' },
  131037: { retryable: false, account: true, title: 'the display name needs approval' },
  131042: { retryable: false, account: true, title: 'a payment problem on the business account' },
  131045: { retryable: false, account: true, title: 'the phone number is not registered correctly' },
  131047: { retryable: false, account: false, title: 'more than 24 hours since the user last replied' },
  131048: { retryable: false, account: false, title: 'spam rate limit: too many messages were blocked or reported' },
  131049: { retryable: false, account: false, title: 'Meta held the marketing message to keep engagement healthy' },
  131050: { retryable: false, account: false, title: 'the user stopped marketing messages' },
  131051: { retryable: false, account: false, title: 'unsupported message type' },
  131052: { retryable: false, account: false, title: 'the media could not be downloaded' },
  131053: { retryable: false, account: false, title: 'the media could not be uploaded' },
  131056: {
    retryable: true,
    account: false,
    title: 'too many messages to this user in a short time (pair rate limit)',
  },
  131057: { retryable: true, account: false, title: 'the business account is in maintenance' },
  132000: { retryable: false, account: false, title: "the template's parameter count does not match" },
  132001: { retryable: false, account: false, title: 'the template does not exist in this language' },
  132005: { retryable: false, account: false, title: 'the filled-in template is too long' },
  132007: { retryable: false, account: false, title: "the template's content breaks a format policy" },
  132012: { retryable: false, account: false, title: "a template parameter's format does not match" },
  132015: { retryable: false, account: false, title: 'the template is paused for low quality' },
  132016: { retryable: false, account: false, title: 'the template is disabled' },
  133010: { retryable: false, account: true, title: 'the phone number is not registered' },
  135000: { retryable: false, account: false, title: 'generic user error' },
};

/** Permission errors come as a range. */
function permissionRange(code: number): WhatsAppErrorKind | undefined {
  return code >= 200 && code <= 299 ? { retryable: false, account: true, title: 'API permission missing' } : undefined;
}

/**
 * What a code means. An unknown code is not retried unless the HTTP status says the carrier
 * itself was the problem (429, 5xx): guessing "retry" for an unknown refusal would send again
 * and again into the same wall.
 */
export function whatsappErrorKind(code: number, httpStatus?: number): WhatsAppErrorKind {
  const known = CODES[code] ?? permissionRange(code);
  if (known) return known;
  const carrierSide = httpStatus !== undefined && (httpStatus === 429 || httpStatus >= 500);
  return { retryable: carrierSide, account: false, title: 'unknown error code' };
}

export function whatsappReason(code: number): string {
  return `WHATSAPP_${code}`;
}

/** The codes the simulator and the tests pick from. */
export const WHATSAPP_ERROR_CODES = Object.keys(CODES).map(Number);

/** Graph error codes are numbers, sometimes written as strings. */
export function errorCode(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  return undefined;
}
