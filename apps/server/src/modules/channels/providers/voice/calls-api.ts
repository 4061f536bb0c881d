/**
 * The one request the voice provider makes: create a call (`POST /2010-04-01/Accounts/{sid}/
 * Calls.json`, HTTP Basic, form-encoded), spoken directly over fetch so any Twilio-compatible
 * carrier works. Its answers are outside input: read bounded, checked, and every failure mapped
 * to a ProviderError that says whether the call may exist:
 * - nothing left (connection refused, DNS, connect timeout) or the API said "later" (429, 503):
 *   `retryable`;
 * - the request left and no clear answer came back (timeout, connection lost, a 5xx, an answer
 *   we cannot read): `sentUnknown`, never re-sent blindly;
 * - the API refused it (4xx with Twilio's `{code, message}`): `VOICE_<code>`, final.
 */
import { sanitizeText } from '@ecoa/shared';
import { ProviderError } from '../../provider.ts';

export type CallsApiConfig = { apiUrl: string; accountSid: string; authToken: string; requestTimeoutMs: number };

export type CreateCall = {
  to: string;
  from: string;
  /** Where the carrier fetches the call's TwiML (POST) once the call is answered. */
  twimlUrl: string;
  statusCallbackUrl: string;
  /** How long the phone rings before the call counts as not answered. */
  ringTimeoutSeconds: number;
  /** The longest a call may last, whatever its TwiML does (a cap on what one call costs). */
  timeLimitSeconds: number;
};

/** Errors that come before a single byte of the request was sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Twilio's "too many requests": refused, so nothing happened. */
const THROTTLED_CODE = 20429;
const MAX_ANSWER_BYTES = 64 * 1024;

export async function createCall(config: CallsApiConfig, call: CreateCall): Promise<{ callSid: string }> {
  const form = new URLSearchParams({
    To: call.to,
    From: call.from,
    Url: call.twimlUrl,
    Method: 'POST',
    StatusCallback: call.statusCallbackUrl,
    StatusCallbackMethod: 'POST',
    Timeout: String(call.ringTimeoutSeconds),
    TimeLimit: String(call.timeLimitSeconds),
  });
  for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
  const url = `${config.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Calls.json`;
  const credentials = Buffer.from(`${config.accountSid}:${config.authToken}`, 'utf8').toString('base64');
  const signal = AbortSignal.timeout(config.requestTimeoutMs);

  let status: number;
  let answer: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
      signal,
      redirect: 'error',
    });
    status = response.status;
    answer = await readBounded(response);
  } catch (error) {
    throw transportError(error);
  }

  const json = parseJson(answer);
  if (status === 200 || status === 201) {
    const sid = typeof json?.sid === 'string' ? json.sid : '';
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(sid)) {
      throw new ProviderError('VOICE_BAD_ANSWER', `the calls API accepted the call with an unreadable answer`, {
        sentUnknown: true,
      });
    }
    return { callSid: sid };
  }
  throw apiError(status, json);
}

function apiError(status: number, json: Record<string, unknown> | null): ProviderError {
  const code =
    Number.isInteger(json?.code) && (json!.code as number) > 0 && (json!.code as number) < 1e6
      ? (json!.code as number)
      : null;
  const said = typeof json?.message === 'string' ? sanitizeText(json.message).slice(0, 300) : '';
  const message = `calls API answered HTTP ${status}${code ? ` (${code})` : ''}${said ? `: ${said}` : ''}`;
  const reason = code ? `VOICE_${code}` : `VOICE_HTTP_${status}`;
  if (status === 429 || status === 503 || code === THROTTLED_CODE)
    return new ProviderError(reason, message, { retryable: true });
  // A server error after the request arrived: the call may have been created.
  if (status >= 500 || status < 400) return new ProviderError(reason, message, { sentUnknown: true });
  return new ProviderError(reason, message);
}

function transportError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ProviderError('VOICE_TIMEOUT', 'the calls API did not answer in time', { sentUnknown: true });
  }
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof code === 'string' && NOT_SENT_CODES.has(code)) {
    return new ProviderError('VOICE_UNREACHABLE', `the calls API is unreachable (${code})`, { retryable: true });
  }
  return new ProviderError(
    'VOICE_CONNECTION_LOST',
    `the connection to the calls API failed (${String(code ?? name)})`,
    {
      sentUnknown: true,
    },
  );
}

/** The answer's text, at most MAX_ANSWER_BYTES (a longer answer is cut: it is not one we expect). */
async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
