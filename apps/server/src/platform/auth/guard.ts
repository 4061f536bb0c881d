/**
 * Session checks for every module's routes.
 *
 *   const guard = createAuthGuard({ sessions: auth });          // built once, in auth/auth.module.ts
 *   app.get('/api/v1/things', { onRequest: guard.requireUser }, async (request) => {
 *     const user = currentUser(request);                           // typed AuthUser, never undefined
 *   });
 *   app.post('/api/v1/admin/things', { onRequest: guard.requireAdmin }, …);
 *
 * Each guarded route names its guard in its own options, always as `onRequest`: the session is
 * checked before the body is read, parsed or validated, so an anonymous call answers 401 (the web
 * app signs out on it), never a validation 400, and an upload is not read for nobody.
 *
 * The token comes from `Authorization: Bearer <token>` or the raw token in `Authorization`
 * (the spec's legacy checkout call). No token, an unknown, expired or revoked token, or a
 * deactivated account → 401 `{message, code: 'UNAUTHORIZED'}` (the web app signs out silently);
 * `requireAdmin` for a non-administrator → 403 `{code: 'FORBIDDEN'}`.
 */
import type { AccessLevel, ApiScope, Language } from '@ecoa/shared';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../errors/app-error.ts';

/** The signed-in user of a request, as the session check found it. */
export type AuthUser = {
  id: string;
  email: string;
  name: string;
  accessLevel: AccessLevel;
  language: Language;
  /** The session the token belongs to (logout, "sessions" settings). */
  sessionId: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser` / `requireAdmin`; undefined on routes without a guard. */
    user?: AuthUser;
  }
}

/** What the guard needs from the auth module: token → user, or null when not valid now. */
export type SessionVerifier = {
  authenticate(token: string): Promise<AuthUser | null>;
};

/** `onRequest` hooks: a route lists one in its options (`{ onRequest: guard.requireUser }`). */
export type AuthGuard = {
  requireUser: onRequestAsyncHookHandler;
  requireAdmin: onRequestAsyncHookHandler;
  /**
   * A route of the developers' API (issue 23): a signed-in session passes whatever the scope; an
   * API key only if it was created with `scope`.
   */
  requireScope(scope: ApiScope): onRequestAsyncHookHandler;
};

/** The token of an `Authorization` header: `Bearer <token>` or the bare token; undefined if none. */
export function readToken(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(value);
  const token = (match ? match[1]! : value).trim();
  // Tokens are base64url; anything else (a space, a stray scheme like "Basic …") is not ours.
  return /^[A-Za-z0-9_-]{16,256}$/.test(token) ? token : undefined;
}

export function createAuthGuard(deps: { sessions: SessionVerifier }): AuthGuard {
  async function signedIn(request: FastifyRequest): Promise<AuthUser> {
    const token = readToken(request.headers.authorization);
    if (!token) throw new AppError('UNAUTHORIZED', undefined, { why: 'signIn' });
    const user = await deps.sessions.authenticate(token);
    if (!user) throw new AppError('UNAUTHORIZED');
    request.user = user;
    return user;
  }
  const requireUser: onRequestAsyncHookHandler = async (request) => {
    await signedIn(request);
  };
  const requireAdmin: onRequestAsyncHookHandler = async (request) => {
    const user = await signedIn(request);
    if (user.accessLevel !== 'ADMINISTRATOR') throw new AppError('FORBIDDEN');
  };
  // Sessions carry every scope. API keys (issue 23) are checked here once they exist.
  const requireScope = (_scope: ApiScope): onRequestAsyncHookHandler => requireUser;
  return { requireUser, requireAdmin, requireScope };
}

/** The guarded request's user; throws 401 if the route forgot its guard (a bug, never a leak). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}
