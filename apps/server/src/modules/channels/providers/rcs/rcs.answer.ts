/**
 * What RBM's answer to `agentMessages.create` means. A pure function of the status and the
 * bytes, so the fuzz suite can feed it anything.
 *
 * RBM is idempotent by the agent's messageId: the same id is never delivered twice, and a
 * repeat is answered 409 ALREADY_EXISTS. So a 409 means the first attempt went through, and
 * every failure where the message may or may not have been taken (no answer, 5xx) is safely
 * retryable: the retry carries the same id. The provider message id is Ecoa's messageId: it is
 * what RBM's DELIVERED and READ events name.
 */
import { ProviderError } from '../../provider.ts';
import { isRecord, parseJson } from '../http-kit/webhook-kit.ts';

export type RcsAnswer =
  | { ok: true; repeated: boolean }
  | {
      ok: false;
      error: ProviderError /** Says something about the agent or the link, not one recipient. */;
      account: boolean;
    };

export function interpretRcsAnswer(status: number, body: Buffer): RcsAnswer {
  if (status >= 200 && status < 300) return { ok: true, repeated: false };
  if (status === 409) return { ok: true, repeated: true };
  const json = parseJson(body);
  const error = isRecord(json) && isRecord(json.error) ? json.error : undefined;
  const named = typeof error?.status === 'string' && /^[A-Z_]{1,40}$/.test(error.status) ? error.status : undefined;
  const reason = `RCS_${named ?? `HTTP_${status}`}`;
  if (status === 404) {
    // The number has no RCS (or RBM cannot reach it): no retry will change that soon.
    return fail('RCS_NOT_CAPABLE', 'the phone is not RCS-capable or not reachable by RBM', {}, false);
  }
  if (status === 400) return fail(reason, 'RBM refused the message as invalid', {}, false);
  if (status === 401 || status === 403)
    return fail(reason, `RBM refused the agent's credentials (${status})`, {}, true);
  if (status === 429) return fail(reason, 'RBM quota exhausted; try again later', { retryable: true }, false);
  if (status >= 500) return fail(reason, `RBM answered ${status}`, { retryable: true }, true);
  return fail(reason, `RBM answered ${status}`, {}, true);
}

function fail(reason: string, message: string, options: ProviderError['options'], account: boolean): RcsAnswer {
  return { ok: false, account, error: new ProviderError(reason, message, options) };
}
