/**
 * The three addresses the carrier calls back for each call, mounted by the channels module under
 * `/api/webhooks/voice`:
 * - `POST /calls/:messageId/twiml`: what to play, read from the signed URL's `script`;
 * - `POST /calls/:messageId/gather?script=…&attempt=1|2`: the key pressed in an URA's menu;
 * - `POST /calls/:messageId/status`: the call's progress (initiated … completed, busy…).
 * Every request is checked first: a bounded body, then X-Twilio-Signature over the full URL and
 * the form (401 and nothing reported when it is missing or wrong); only then is it read.
 */
import type { Clock } from '../../../../platform/clock/clock.ts';
import type { StatusEvent, WebhookRequest, WebhookResponse, WebhookRoute } from '../../provider.ts';
import { type CallScript, decodeCallScript, encodeCallScript } from './call-script.ts';
import { eventTime, mapCallStatus } from './call-status.ts';
import { isValidTwilioSignature, parseForm, SIGNATURE_HEADER } from './twilio-signature.ts';
import { afterKeyTwiml, goodbyeTwiml, menuTwiml, torpedoTwiml } from './twiml.ts';

export const VOICE_PROVIDER_NAME = 'voice';
export const VOICE_WEBHOOK_PREFIX = `/api/webhooks/${VOICE_PROVIDER_NAME}`;

/** The error codes these routes answer with (the fuzz suite holds them to it). */
export const VOICE_WEBHOOK_ERRORS = {
  VOICE_CALLBACK_TOO_LARGE: 413,
  VOICE_SIGNATURE_INVALID: 401,
  VOICE_CALLBACK_INVALID: 400,
  VOICE_SCRIPT_INVALID: 400,
  VOICE_EVENT_NOT_RECORDED: 500,
} as const;
type WebhookErrorCode = keyof typeof VOICE_WEBHOOK_ERRORS;

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
  /** The form of a genuine carrier request, or the answer that refuses it. */
  function verified(request: WebhookRequest): Map<string, string> | WebhookResponse {
    if (request.rawBody.length > MAX_BODY_BYTES) return refuse('VOICE_CALLBACK_TOO_LARGE', 'body too large');
    const form = parseForm(request.rawBody);
    if (!isValidTwilioSignature(deps.authToken, header(request, SIGNATURE_HEADER), request.url, form)) {
      return refuse('VOICE_SIGNATURE_INVALID', 'missing or wrong X-Twilio-Signature');
    }
    // The first value of each name: Twilio sends each call parameter once.
    const params = new Map<string, string>();
    for (const [name, value] of form) if (!params.has(name)) params.set(name, value);
    return params;
  }

  async function report(event: Omit<StatusEvent, 'type' | 'provider'>): Promise<WebhookResponse | null> {
    try {
      await deps.emit({ type: 'status', provider: VOICE_PROVIDER_NAME, ...event });
      return null;
    } catch {
      return refuse('VOICE_EVENT_NOT_RECORDED', 'the event could not be recorded; try again');
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
      const form = verified(request);
      if (!(form instanceof Map)) return form;
      const script = decodeCallScript(request.query.script);
      if (!script) return refuse('VOICE_SCRIPT_INVALID', 'the call script is not readable');
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
      if (!(form instanceof Map)) return form;
      const script = menuScript(request);
      const attempt = request.query.attempt;
      if (!script || (attempt !== '1' && attempt !== '2')) {
        return refuse('VOICE_SCRIPT_INVALID', 'the menu script is not readable');
      }
      const callSid = form.get('CallSid') ?? '';
      const digits = form.get('Digits') ?? '';
      if (!CALL_SID.test(callSid) || (digits !== '' && !DIGITS.test(digits))) {
        return refuse('VOICE_CALLBACK_INVALID', 'CallSid or Digits is not valid');
      }
      if (digits === '') return xml(goodbyeTwiml());
      const failed = await report({
        providerMessageId: callSid,
        status: 'sent',
        at: deps.clock.now(),
        detail: { digits },
      });
      if (failed) return failed;
      const retry = attempt === '1' ? gatherUrl(params.messageId ?? '', script, 2) : null;
      return xml(afterKeyTwiml(script.prompt, script.menu, digits, retry));
    },
  };

  const status: WebhookRoute = {
    method: 'POST',
    path: '/calls/:messageId/status',
    async handle(request) {
      const form = verified(request);
      if (!(form instanceof Map)) return form;
      const callSid = form.get('CallSid') ?? '';
      const mapped = mapCallStatus(form.get('CallStatus'), form.get('CallDuration'));
      if (!CALL_SID.test(callSid) || !mapped)
        return refuse('VOICE_CALLBACK_INVALID', 'CallSid or CallStatus is not valid');
      const failed = await report({
        providerMessageId: callSid,
        at: eventTime(form.get('Timestamp'), deps.clock.now()),
        ...mapped,
      });
      return failed ?? { status: 204 };
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

function refuse(code: WebhookErrorCode, message: string): WebhookResponse {
  return {
    status: VOICE_WEBHOOK_ERRORS[code],
    body: JSON.stringify({ message, code }),
    contentType: 'application/json; charset=utf-8',
  };
}
