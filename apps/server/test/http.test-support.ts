/**
 * Requests as a user, the one way every test makes them: the session's bearer header beside the
 * request's own headers (a multipart form's content type, an Idempotency-Key), and no header at
 * all for an anonymous call.
 *
 *   const res = await injectAs(server, user.token, { method: 'GET', url: '/api/v1/lists' });
 *   const asAna = asUser(server, ana.token);
 *   await asAna({ method: 'POST', url: '/api/v1/opt-outs', payload: { phone } });
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RunningServer } from '../src/server.ts';
import { bearer } from './factories.test-support.ts';
import { type FormPart, multipart } from './multipart.test-support.ts';

/** `options` sent to `server` as the user holding `token` (none: anonymously). */
export function injectAs(
  server: RunningServer,
  token: string | null | undefined,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  return server.app.inject({ ...options, headers: { ...(token ? bearer(token) : {}), ...(options.headers ?? {}) } });
}

/** `injectAs` for one user, for a test that speaks as several. */
export function asUser(
  server: RunningServer,
  token: string | null | undefined,
): (options: InjectOptions) => Promise<LightMyRequestResponse> {
  return (options) => injectAs(server, token, options);
}

/**
 * A multipart upload as the user holding `token`: `form` is the parts, or a body `multipart` built
 * already (a test that reuses it).
 */
export function uploadAs(
  server: RunningServer,
  token: string | null | undefined,
  url: string,
  form: FormPart[] | ReturnType<typeof multipart>,
  method: 'POST' | 'PUT' = 'POST',
): Promise<LightMyRequestResponse> {
  const body = Array.isArray(form) ? multipart(form) : form;
  return injectAs(server, token, { method, url, payload: body.payload, headers: body.headers });
}
