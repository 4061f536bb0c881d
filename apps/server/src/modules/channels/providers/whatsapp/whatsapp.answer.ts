/**
 * What the Cloud API's answer to a send means: the wamid, or a ProviderError saying whether the
 * message may have gone. A pure function of the status and the bytes, so the fuzz suite can
 * feed it anything a broken proxy or a hostile server could answer.
 *
 * The Cloud API has no idempotency key: a send that may have been taken must never be
 * repeated blindly (`sentUnknown`), one that certainly was not may be (`retryable`).
 */
import { sanitizeText } from '@ecoa/shared';
import { ProviderError } from '../../provider.ts';
import { asArray, carrierId, isRecord, parseJson } from '../http-kit/webhook-kit.ts';
import { errorCode, whatsappErrorKind, whatsappReason } from './whatsapp.errors.ts';

export type SendAnswer =
  | { ok: true; wamid: string }
  | { ok: false; error: ProviderError /** Says something about the account, not one message. */; account: boolean };

export function interpretSendAnswer(status: number, body: Buffer): SendAnswer {
  const json = parseJson(body);
  if (status >= 200 && status < 300) {
    const first = isRecord(json) ? asArray(json.messages)[0] : undefined;
    const wamid = isRecord(first) ? carrierId(first.id) : undefined;
    if (wamid) return { ok: true, wamid };
    // Meta said yes but we cannot tell which message it made: it may well go out.
    return failure('WHATSAPP_ANSWER_INVALID', 'the Cloud API accepted the message without a usable id', {
      sentUnknown: true,
    });
  }
  const error = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  const code = error ? errorCode(error.code) : undefined;
  if (code !== undefined) {
    const kind = whatsappErrorKind(code, status);
    const said = typeof error?.message === 'string' ? sanitizeText(error.message.slice(0, 300)) : kind.title;
    return {
      ok: false,
      account: kind.account,
      error: new ProviderError(whatsappReason(code), said, { retryable: kind.retryable }),
    };
  }
  // No Graph error: a proxy or load balancer answered.
  if (status === 429 || status === 503) {
    return failure(`WHATSAPP_HTTP_${status}`, `the Cloud API answered ${status} (not taken)`, { retryable: true });
  }
  if (status >= 500) {
    // A gateway error or a bare 500 can come after the send was taken.
    return failure(`WHATSAPP_HTTP_${status}`, `the Cloud API answered ${status}; the message may have been taken`, {
      sentUnknown: true,
    });
  }
  return failure(`WHATSAPP_HTTP_${status}`, `the Cloud API answered ${status} without an error code`, {});
}

function failure(reason: string, message: string, options: ProviderError['options']): SendAnswer {
  return { ok: false, account: true, error: new ProviderError(reason, message, options) };
}
