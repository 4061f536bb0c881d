import { type Device, LOGIN_CODE_LENGTH, type PublicUser, type RateLimitSubject } from '@ecoa/shared';
import {
  hashLoginCode,
  hashSessionToken,
  newLoginCode,
  newSessionToken,
  sameDigest,
} from '../../platform/auth/crypto.ts';
import type { AuthUser } from '../../platform/auth/guard.ts';
import { type Clock, DAY, HOUR, MINUTE } from '../../platform/clock/clock.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { loginCodeEmail } from './auth.emails.ts';
import type { AuthRepository, LiveSession, RateLimitCheck, RateLimitVerdict } from './auth.repository.ts';
import { describeUserAgent } from './user-agent.ts';

/** The rules of sign-in (issue 3). Tests and the composition root may override any of them. */
export const AUTH_RULES = {
  codeValidMs: 10 * MINUTE,
  /** The fifth wrong code voids the code. */
  maxCodeAttempts: 5,
  /** A session without remainLogin ends this long after sign-in. */
  sessionMs: 12 * HOUR,
  /** A remainLogin session ends after this long without use. */
  rememberedIdleMs: 30 * DAY,
  /** last_seen_at (and a remembered session's expiry) moves at most this often. */
  touchEveryMs: MINUTE,
  limits: {
    codeWindowMs: 15 * MINUTE,
    /** Code requests (request + resend) for one e-mail per window. */
    codesPerEmail: 5,
    /** … and per day, which caps guesses at a 6-digit code to 100 a day per account. */
    codesPerEmailPerDay: 20,
    /**
     * Code requests from one IP per window. Higher than per e-mail: offices share one address,
     * and it still stops one client from mailing or probing many accounts.
     */
    codesPerIp: 20,
    loginWindowMs: 15 * MINUTE,
    /** Failed sign-ins (wrong, expired or used codes) from one IP per window. */
    loginFailuresPerIp: 20,
    signupWindowMs: HOUR,
    /**
     * Sign-ups from one IP per hour. Every account gets a welcome bonus of credits, so scripted
     * sign-ups would farm free messages; a company signs up once, an office a few times.
     */
    signupsPerIp: 10,
  },
} as const;
export type AuthRules = {
  [K in keyof typeof AUTH_RULES]: K extends 'limits' ? { [L in keyof (typeof AUTH_RULES)['limits']]: number } : number;
};

/** What a code request answers on success (errors are the catalogue's, `ERRORS` in @ecoa/shared). */
export const AUTH_MESSAGES = {
  codeSent: 'Código enviado para o seu e-mail.',
  codeResent: 'Código reenviado com sucesso.',
} as const;

/** One live session as its user sees it in the settings (`GET /api/v1/me/sessions`). */
export type SessionSummary = {
  id: string;
  ip: string | null;
  userAgent: string | null;
  device: Device;
  remainLogin: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  /** The session of the request that asked. */
  current: boolean;
};

export type AuthServiceDeps = {
  repo: AuthRepository;
  mailer: Mailer;
  clock: Clock;
  /** Keys the login-code hashes (the pepper). */
  secret: string;
  logger: Logger;
  /** The user's public shape (`GET /api/me`), from the users module. */
  loadUser: (userId: string) => Promise<PublicUser>;
  rules?: Partial<Omit<AuthRules, 'limits'>> & { limits?: Partial<AuthRules['limits']> };
};

export type RequestMeta = { ip: string | null; userAgent?: string | null };

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** A 429 for an abuse limit, with the wait in `details` (and the Retry-After header). */
function rateLimited(verdict: Exclude<RateLimitVerdict, { ok: true }>, subject: RateLimitSubject): AppError {
  return new AppError('RATE_LIMITED', { retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000) }, { subject });
}

/**
 * Sign-in with an e-mail code, and sessions. No HTTP and no SQL here: the routes adapt HTTP,
 * the repository runs the SQL.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const { repo, clock } = deps;
  const rules: AuthRules = {
    ...AUTH_RULES,
    ...deps.rules,
    limits: { ...AUTH_RULES.limits, ...deps.rules?.limits },
  };
  const log = deps.logger.child({ module: 'auth' });
  let lastPrune = 0;

  async function sendCode(rawEmail: string, meta: RequestMeta, reason: 'request' | 'resend') {
    const email = normaliseEmail(rawEmail);
    const now = clock.now();
    const l = rules.limits;
    const checks: RateLimitCheck[] = [
      { kind: 'code:email', subject: email, limit: l.codesPerEmail, windowMs: l.codeWindowMs },
      { kind: 'code:email', subject: email, limit: l.codesPerEmailPerDay, windowMs: DAY },
    ];
    if (meta.ip) checks.unshift({ kind: 'code:ip', subject: meta.ip, limit: l.codesPerIp, windowMs: l.codeWindowMs });
    const verdict = await repo.consumeRateLimits(checks, now);
    if (!verdict.ok) {
      log.warn({ kind: verdict.check.kind }, 'code request rate-limited');
      throw rateLimited(verdict, verdict.check.kind === 'code:ip' ? 'codeIp' : 'codeEmail');
    }

    const account = await repo.findAccountByEmail(email);
    if (!account) throw new AppError('EMAIL_NOT_FOUND');
    if (!account.active) throw new AppError('USER_DEACTIVATED');

    const code = newLoginCode(LOGIN_CODE_LENGTH);
    await repo.replaceLiveCode({
      userId: account.id,
      codeHash: hashLoginCode(deps.secret, account.id, code),
      reason,
      ip: meta.ip,
      now,
      expiresAt: new Date(now.getTime() + rules.codeValidMs),
    });
    try {
      await deps.mailer.send(
        loginCodeEmail({
          to: account.email,
          name: account.fullName || account.name,
          code,
          language: account.language,
          validMinutes: Math.round(rules.codeValidMs / MINUTE),
        }),
      );
    } catch (err) {
      log.error({ err, userId: account.id }, 'could not send the login code');
      throw new AppError('MAIL_FAILED');
    }
    await pruneNow(now);
    return {
      ok: true as const,
      message: reason === 'resend' ? AUTH_MESSAGES.codeResent : AUTH_MESSAGES.codeSent,
      expiresInSeconds: Math.round(rules.codeValidMs / 1000),
    };
  }

  async function loginFailed(ip: string | null, now: Date, error: AppError): Promise<never> {
    if (ip) await repo.recordAttempt('login-fail:ip', ip, now);
    throw error;
  }

  /** Housekeeping at most once an hour per process; old rows are never needed by any rule. */
  async function pruneNow(now: Date) {
    if (now.getTime() - lastPrune < HOUR) return;
    lastPrune = now.getTime();
    await repo.prune().catch((err) => log.warn({ err }, 'prune failed'));
  }

  /**
   * The session check with the caller's own lookup, which reads more in the same statement
   * (`/api/me`: the profile and balance; see `liveSessionCondition`); the session's rules
   * (sliding expiry) stay here. null when the token is not a live session.
   */
  async function authenticateWith<T extends LiveSession>(
    token: string,
    lookup: (tokenHash: string, now: Date) => Promise<T | undefined>,
  ): Promise<T | null> {
    const now = clock.now();
    const session = await lookup(hashSessionToken(token), now);
    if (!session) return null;
    if (now.getTime() - session.lastSeenAt.getTime() >= rules.touchEveryMs) {
      await repo.touchSession(
        session.sessionId,
        now,
        session.remainLogin ? new Date(now.getTime() + rules.rememberedIdleMs) : undefined,
      );
    }
    return session;
  }

  return {
    rules,

    /** `POST /api/auth/request-code`: e-mails a new code (voiding any previous one). */
    requestCode: (email: string, meta: RequestMeta) => sendCode(email, meta, 'request'),

    /** Counts a sign-up attempt from this client; refuses past the per-IP limit (429). */
    async allowSignup(meta: RequestMeta): Promise<void> {
      if (!meta.ip) return;
      const l = rules.limits;
      const check = { kind: 'signup:ip', subject: meta.ip, limit: l.signupsPerIp, windowMs: l.signupWindowMs };
      const verdict = await repo.consumeRateLimits([check], clock.now());
      if (!verdict.ok) {
        log.warn({ ip: meta.ip }, 'sign-up rate-limited');
        throw rateLimited(verdict, 'signupIp');
      }
    },

    /** `POST /api/auth/resend-code`: the same, worded as a resend. The previous code stops working. */
    resendCode: (email: string, meta: RequestMeta) => sendCode(email, meta, 'resend'),

    /** `POST /api/auth/login`: a right code → a new session token and the user. */
    async login(input: { email: string; code: string; remainLogin: boolean }, meta: RequestMeta) {
      const now = clock.now();
      const email = normaliseEmail(input.email);
      const l = rules.limits;
      if (meta.ip) {
        const verdict = await repo.checkRateLimit(
          { kind: 'login-fail:ip', subject: meta.ip, limit: l.loginFailuresPerIp, windowMs: l.loginWindowMs },
          now,
        );
        if (!verdict.ok) throw rateLimited(verdict, 'login');
      }

      const account = await repo.findAccountByEmail(email);
      if (!account) return loginFailed(meta.ip, now, new AppError('INVALID_CODE'));
      if (!account.active) throw new AppError('USER_DEACTIVATED');

      const attempt = await repo.takeCodeAttempt(account.id, now, rules.maxCodeAttempts);
      if (!attempt) return loginFailed(meta.ip, now, new AppError('CODE_EXPIRED'));

      const candidate = hashLoginCode(deps.secret, account.id, input.code.trim());
      if (!sameDigest(candidate, attempt.codeHash)) {
        if (attempt.attempts >= rules.maxCodeAttempts) {
          await repo.voidCode(attempt.id, now);
          return loginFailed(meta.ip, now, new AppError('CODE_ATTEMPTS_EXCEEDED', { attemptsLeft: 0 }));
        }
        return loginFailed(
          meta.ip,
          now,
          new AppError('INVALID_CODE', {
            attemptsLeft: rules.maxCodeAttempts - attempt.attempts,
          }),
        );
      }
      if (!(await repo.consumeCode(attempt.id, now))) {
        return loginFailed(meta.ip, now, new AppError('CODE_EXPIRED'));
      }

      const accessToken = newSessionToken();
      await repo.createSession({
        userId: account.id,
        tokenHash: hashSessionToken(accessToken),
        remainLogin: input.remainLogin,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        now,
        expiresAt: new Date(now.getTime() + (input.remainLogin ? rules.rememberedIdleMs : rules.sessionMs)),
      });
      log.info({ userId: account.id, remainLogin: input.remainLogin }, 'signed in');
      return { accessToken, user: await deps.loadUser(account.id) };
    },

    /** The session check behind the auth guard (see platform/auth/guard.ts). */
    async authenticate(token: string): Promise<AuthUser | null> {
      const session = await authenticateWith(token, repo.findLiveSession);
      if (!session) return null;
      const { user } = session;
      return {
        id: user.id,
        email: user.email,
        name: user.name,
        accessLevel: user.accessLevel,
        language: user.language,
        sessionId: session.sessionId,
      };
    },

    authenticateWith,

    /** `POST /api/auth/logout`: revokes the token. Idempotent: an unknown token is not an error. */
    async logout(token: string | undefined): Promise<void> {
      if (!token) return;
      await repo.revokeSessionByTokenHash(hashSessionToken(token), clock.now());
    },

    /** The user's live sessions, the current one first, with a readable device. */
    async listSessions(userId: string, currentSessionId: string): Promise<SessionSummary[]> {
      const rows = await repo.listLiveSessions(userId, clock.now());
      const list = rows.map((row) => ({
        ...row,
        device: describeUserAgent(row.userAgent),
        current: row.id === currentSessionId,
      }));
      return [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
    },

    /**
     * Ends one of the user's own live sessions ("sign out of this device"). Another user's
     * session is answered exactly like an unknown one: 404, and nothing changes.
     */
    async endSession(userId: string, sessionId: string): Promise<void> {
      if (!(await repo.revokeUserSession(userId, sessionId, clock.now()))) {
        throw new AppError('SESSION_NOT_FOUND');
      }
      log.info({ userId, sessionId }, 'session ended by its user');
    },

    /**
     * Ends every session of a user and voids any live code (deactivation), inside the caller's
     * transaction when it passes one.
     */
    async endAllSessions(userId: string, tx?: DbOrTx): Promise<number> {
      const now = clock.now();
      const ended = await repo.revokeAllSessions(userId, now, tx);
      await repo.voidLiveCodes(userId, now, tx);
      return ended;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
