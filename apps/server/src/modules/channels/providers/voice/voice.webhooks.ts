/**
 * The three addresses the carrier calls back for each call, mounted by the channels module under
 * `/api/webhooks/voice`:
 * - `POST /calls/:messageId/twiml`: what to play, read from the signed URL's `script`;
 * - `POST /calls/:messageId/gather?script=…&attempt=1|2`: the key pressed in an URA's menu;
 * - `POST /calls/:messageId/status`: the call's progress (initiated … completed, busy…).
 * Every request is checked first: a bounded body, then X-Twilio-Signature over the full URL and
 * the form (401 and nothing reported when it is missing or wrong); only then is it read.
 */
import { ERRORS } from '@ecoa/shared';
import type { Clock } from '../../../../platform/clock/clock.ts';
import { AppError } from '../../../../platform/errors/app-error.ts';
import type { StatusEvent, WebhookRequest, WebhookResponse, WebhookRoute } from '../../provider.ts';
import { type CallScript, decodeCallScript, encodeCallScript } from './call-script.ts';
import { eventTime, mapCallStatus } from './call-status.ts';
import { isValidTwilioSignature, parseForm, SIGNATURE_HEADER } from './twilio-signature.ts';
import { afterKeyTwiml, goodbyeTwiml, menuTwiml, torpedoTwiml } from './twiml.ts';

export const VOICE_PROVIDER_NAME = 'voice';
export const VOICE_WEBHOOK_PREFIX = `/api/webhooks/${VOICE_PROVIDER_NAME}`;

const VOICE_WEBHOOK_CODES = [
  'VOICE_CALLBACK_TOO_LARGE',
  'VOICE_SIGNATURE_INVALID',
  'VOICE_CALLBACK_INVALID',
  'VOICE_SCRIPT_INVALID',
  'VOICE_EVENT_NOT_RECORDED',
] as const;
/**
 * The error codes these routes answer with and their statuses, read from the catalogue (ERRORS,
 * audience `carrier`), where each is thrown from as an `AppError` (the fuzz suite holds them to it).
 */
export const VOICE_WEBHOOK_ERRORS = Object.fromEntries(
  VOICE_WEBHOOK_CODES.map((code) => [code, ERRORS[code].status]),
) as {
  readonly [C in (typeof VOICE_WEBHOOK_CODES)[number]]: (typeof ERRORS)[C]['status'];
};

/** Twilio's callbacks are a few hundred bytes; a generous bound for the rest. */
const MAX_BODY_BYTES = 32 * 1024;
const CALL_SID = /^[A-Za-z0-9_-]{1,64}$/;
const DIGITS = /^[0-9*#]{1,20}$/;

type CallLeaf = 'twiml' | 'gather' | 'status';

/** The absolute address of one of a call's routes, as the carrier will call it. */
export function callWebhookUrl(
  publicUrl: string,
  messageId: string,
  leaf: CallLeaf,
  query: Record<string, string> = {},
): string {
  const search = new URLSearchParams(query).toString();
  return `${publicUrl}${VOICE_WEBHOOK_PREFIX}/calls/${encodeURIComponent(messageId)}/${leaf}${search ? `?${search}` : ''}`;
}

export type VoiceWebhookDeps = {
  authToken: string;
  publicUrl: string;
  clock: Clock;
  /** Hands a verified event to the channels service; throws when it could not be recorded. */
  emit(event: StatusEvent): Promise<void>;
};

export function voiceWebhookRoutes(deps: VoiceWebhookDeps): WebhookRoute[] {
  /** The form of a genuine carrier request; throws the refusal otherwise. */
  function verified(request: WebhookRequest): Map<string, string> {
    if (request.rawBody.length > MAX_BODY_BYTES) throw new AppError('VOICE_CALLBACK_TOO_LARGE');
    const form = parseForm(request.rawBody);
    if (!isValidTwilioSignature(deps.authToken, header(request, SIGNATURE_HEADER), request.url, form)) {
      throw new AppError('VOICE_SIGNATURE_INVALID');
    }
    // The first value of each name: Twilio sends each call parameter once.
    const params = new Map<string, string>();
    for (const [name, value] of form) if (!params.has(name)) params.set(name, value);
    return params;
  }

  /** Hands the event to the core; refuses with 500 when it could not be recorded (the carrier retries). */
  async function report(event: Omit<StatusEvent, 'type' | 'provider'>): Promise<void> {
    try {
      await deps.emit({ type: 'status', provider: VOICE_PROVIDER_NAME, ...event });
    } catch {
      throw new AppError('VOICE_EVENT_NOT_RECORDED');
    }
  }

  function menuScript(request: WebhookRequest): Required<CallScript> | null {
    const script = decodeCallScript(request.query.script);
    return script?.menu ? (script as Required<CallScript>) : null;
  }

  const twiml: WebhookRoute = {
    method: 'POST',
    path: '/calls/:messageId/twiml',
    async handle(request, params) {
      verified(request);
      const script = decodeCallScript(request.query.script);
      if (!script) throw new AppError('VOICE_SCRIPT_INVALID', undefined, { why: 'call' });
      if (!script.menu) return xml(torpedoTwiml(script.prompt));
      const action = gatherUrl(params.messageId ?? '', script, 1);
      return xml(menuTwiml(script.prompt, script.menu, action));
    },
  };

  const gather: WebhookRoute = {
    method: 'POST',
    path: '/calls/:messageId/gather',
    async handle(request, params) {
      const form = verified(request);
      const script = menuScript(request);
      const attempt = request.query.attempt;
      if (!script || (attempt !== '1' && attempt !== '2')) {
        throw new AppError('VOICE_SCRIPT_INVALID', undefined, { why: 'menu' });
      }
      const callSid = form.get('CallSid') ?? '';
      const digits = form.get('Digits') ?? '';
      if (!CALL_SID.test(callSid) || (digits !== '' && !DIGITS.test(digits))) {
        throw new AppError('VOICE_CALLBACK_INVALID', undefined, { why: 'digits' });
      }
      if (digits === '') return xml(goodbyeTwiml());
      await report({ providerMessageId: callSid, status: 'sent', at: deps.clock.now(), detail: { digits } });
      const retry = attempt === '1' ? gatherUrl(params.messageId ?? '', script, 2) : null;
      return xml(afterKeyTwiml(script.prompt, script.menu, digits, retry));
    },
  };

  const status: WebhookRoute = {
    method: 'POST',
    path: '/calls/:messageId/status',
    async handle(request) {
      const form = verified(request);
      const callSid = form.get('CallSid') ?? '';
      const mapped = mapCallStatus(form.get('CallStatus'), form.get('CallDuration'));
      if (!CALL_SID.test(callSid) || !mapped)
        throw new AppError('VOICE_CALLBACK_INVALID', undefined, { why: 'status' });
      await report({ providerMessageId: callSid, at: eventTime(form.get('Timestamp'), deps.clock.now()), ...mapped });
      return { status: 204 };
    },
  };

  function gatherUrl(messageId: string, script: CallScript, attempt: 1 | 2): string {
    return callWebhookUrl(deps.publicUrl, messageId, 'gather', {
      script: encodeCallScript(script),
      attempt: String(attempt),
    });
  }

  return [twiml, gather, status];
}

/** A header by name, whatever case the server kept it in (Node lowercases; others may not). */
function header(request: WebhookRequest, name: string): string | undefined {
  const direct = request.headers[name];
  if (direct !== undefined) return direct;
  const key = Object.keys(request.headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : request.headers[key];
}

function xml(body: string): WebhookResponse {
  return { status: 200, body, contentType: 'text/xml; charset=utf-8' };
}
