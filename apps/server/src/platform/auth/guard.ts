/**
 * Session and API-key checks for every module's routes.
 *
 *   const guard = createAuthGuard({ sessions: auth, apiKeys, clock });  // built once, in auth/auth.module.ts
 *   const userRoute = routeOptions(guard.requireUser, { tags: ['things'], errors });  // platform/http/route-options.ts
 *   r.get('/api/v1/things', userRoute({ summary, response: { 200: thingsSchema } }), async (request) => {
 *     const user = currentUser(request);                           // typed AuthUser, never undefined
 *   });
 *   routeOptions(guard.requireAdmin, …);  routeOptions(guard.requireScope('campaigns:read'), …);
 *
 * Each guarded route gets its guard from its group's `routeOptions`, which sets it as the route's
 * `onRequest` hook: the session is checked before the body is read, parsed or validated, so an
 * anonymous call answers 401 (the web app signs out on it), never a validation 400, and an upload
 * is not read for nobody.
 *
 * The token comes from `Authorization: Bearer <token>` or the raw token in `Authorization`
 * (the spec's legacy checkout call). No token, an unknown, expired or revoked token, or a
 * deactivated account → 401 `{message, code: 'UNAUTHORIZED'}` (the web app signs out silently);
 * `requireAdmin` for a non-administrator → 403 `{code: 'FORBIDDEN'}`.
 *
 * API keys (`ecoa_…`, issue 23) authenticate as their user on `requireScope` routes only: a key
 * without the route's scope → 403 `API_KEY_SCOPE_MISSING` (details `{scope}`); a key on a
 * `requireUser`/`requireAdmin` route → 403 `API_KEY_NOT_ALLOWED` (a key never mints keys, reads
 * the account or administers). Every key request takes a token from its key's bucket
 * (token-buckets.ts, per process) and answers the `RateLimit-*` headers; an empty bucket → 429
 * `API_KEY_RATE_LIMITED` with `Retry-After`.
 */
import { type AccessLevel, API_KEY_PATTERN, type ApiScope, type Language } from '@ecoa/shared';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Clock } from '../clock/clock.ts';
import { AppError } from '../errors/app-error.ts';
import { type BucketRate, createTokenBuckets } from './token-buckets.ts';

/** The signed-in user of a request, as the session check found it. */
export type AuthUser = {
  id: string;
  email: string;
  name: string;
  accessLevel: AccessLevel;
  language: Language;
} & (
  | {
      /** The session the token belongs to (logout, "sessions" settings). */
      sessionId: string;
      apiKeyId?: undefined;
      scopes?: undefined;
    }
  | {
      /** None: an API key authenticated the request (it reaches no session route; see `currentSessionId`). */
      sessionId: null;
      apiKeyId: string;
      /** What the key may do; a session may do everything. */
      scopes: readonly ApiScope[];
    }
);

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

/** A live API key's user, scopes and bucket (its user's rate, or the default). */
export type ApiKeyCaller = { user: AuthUser & { apiKeyId: string }; rate: BucketRate };

/** What the guard needs from the api-keys module: key → its caller, or null (unknown, revoked, user deactivated). */
export type ApiKeyVerifier = {
  authenticate(key: string): Promise<ApiKeyCaller | null>;
};

/** `onRequest` hooks: a routes file hands one to `routeOptions` for each group of its routes. */
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

export function createAuthGuard(deps: {
  sessions: SessionVerifier;
  apiKeys?: ApiKeyVerifier;
  clock: Clock;
}): AuthGuard {
  const buckets = createTokenBuckets(deps.clock);

  /** Takes one request from the key's bucket and answers its headers; 429 when it is empty. */
  function limit(caller: ApiKeyCaller, reply: FastifyReply) {
    const verdict = buckets.take(caller.user.apiKeyId, caller.rate);
    reply.header('ratelimit-limit', verdict.limit);
    reply.header('ratelimit-remaining', verdict.remaining);
    reply.header('ratelimit-reset', verdict.resetSeconds);
    reply.header('ratelimit-policy', `${caller.rate.burst};w=${caller.rate.burst / caller.rate.perSecond}`);
    if (!verdict.allowed) {
      throw new AppError('API_KEY_RATE_LIMITED', { retryAfterSeconds: verdict.retryAfterSeconds });
    }
  }

  /** The caller of a request: a session, or an API key (already counted against its rate). */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<AuthUser> {
    const token = readToken(request.headers.authorization);
    if (!token) throw new AppError('UNAUTHORIZED', undefined, { why: 'signIn' });
    if (deps.apiKeys && API_KEY_PATTERN.test(token)) {
      const caller = await deps.apiKeys.authenticate(token);
      if (!caller) throw new AppError('UNAUTHORIZED');
      request.user = caller.user;
      limit(caller, reply);
      return caller.user;
    }
    const user = await deps.sessions.authenticate(token);
    if (!user) throw new AppError('UNAUTHORIZED');
    request.user = user;
    return user;
  }
  /** A session's route: an API key is refused whatever its scopes. */
  async function session(request: FastifyRequest, reply: FastifyReply): Promise<AuthUser> {
    const user = await signedIn(request, reply);
    if (user.apiKeyId) throw new AppError('API_KEY_NOT_ALLOWED');
    return user;
  }
  const requireUser: onRequestAsyncHookHandler = async (request, reply) => {
    await session(request, reply);
  };
  const requireAdmin: onRequestAsyncHookHandler = async (request, reply) => {
    const user = await session(request, reply);
    if (user.accessLevel !== 'ADMINISTRATOR') throw new AppError('FORBIDDEN');
  };
  // A session carries every scope; a key only those it was created with.
  const requireScope =
    (scope: ApiScope): onRequestAsyncHookHandler =>
    async (request, reply) => {
      const user = await signedIn(request, reply);
      if (user.scopes && !user.scopes.includes(scope)) throw new AppError('API_KEY_SCOPE_MISSING', { scope });
    };
  return { requireUser, requireAdmin, requireScope };
}

/** The guarded request's user; throws 401 if the route forgot its guard (a bug, never a leak). */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}

/** The session of a `requireUser`/`requireAdmin` route's request (those refuse API keys, so there is one). */
export function currentSessionId(request: FastifyRequest): string {
  const { sessionId } = currentUser(request);
  if (sessionId === null) throw new AppError('API_KEY_NOT_ALLOWED');
  return sessionId;
}
