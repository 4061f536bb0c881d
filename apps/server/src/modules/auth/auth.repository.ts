import { and, asc, count, desc, eq, gt, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { users } from '../users/index.ts';
import { authAttempts, loginCodes, sessions } from './auth.schema.ts';

/** What sign-in needs to know about an account. */
export type LoginAccount = {
  id: string;
  email: string;
  name: string;
  fullName: string;
  accessLevel: 'USER' | 'ADMINISTRATOR';
  language: 'pt' | 'en' | 'cn';
  active: boolean;
};

/** One sliding-window limit: at most `limit` events of `kind` for `subject` in `windowMs`. */
export type RateLimitCheck = { kind: string; subject: string; limit: number; windowMs: number };
export type RateLimitVerdict = { ok: true } | { ok: false; check: RateLimitCheck; retryAfterMs: number };

const accountColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  fullName: users.fullName,
  accessLevel: users.accessLevel,
  language: users.language,
  active: users.active,
};

/**
 * The live-session rule in SQL, for queries over `sessions` joined with `users`: the token's
 * session, not revoked, not expired, of an active account. Placeholders `tokenHash` and `now`.
 * Exported for the one statement of `/api/me` (users.repository.ts), which reads the profile in
 * the same round trip; the rule itself stays here.
 */
export const liveSessionCondition = () =>
  and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql.placeholder('now')),
    eq(users.active, true),
  );

/** What the session rules (auth.service.ts) need of a session found by its token. */
export const liveSessionColumns = {
  sessionId: sessions.id,
  remainLogin: sessions.remainLogin,
  lastSeenAt: sessions.lastSeenAt,
};
export type LiveSession = { sessionId: string; remainLogin: boolean; lastSeenAt: Date };

// Every authenticated request runs this one: prepared (see platform/db/prepared.ts).
const liveSessionByTokenHash = preparedStatement('auth_live_session', (db, name) =>
  db
    .select({ ...liveSessionColumns, user: accountColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSessionCondition())
    .limit(1)
    .prepare(name),
);

/** Revokes the live sessions `condition` picks (already revoked ones are left as they are); how many. */
async function revokeSessionsWhere(condition: SQL | undefined, now: Date, tx: DbOrTx): Promise<number> {
  const rows = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(condition, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

/** SQL of the auth module. */
export function createAuthRepository(db: Database) {
  return {
    async findAccountByEmail(email: string, tx: DbOrTx = db): Promise<LoginAccount | undefined> {
      const [row] = await tx
        .select(accountColumns)
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .limit(1);
      return row;
    },

    /** Voids the user's live code (if any) and stores a new one, atomically. */
    async replaceLiveCode(
      input: {
        userId: string;
        codeHash: string;
        reason: 'request' | 'resend';
        ip: string | null;
        now: Date;
        expiresAt: Date;
      },
      tx: DbOrTx = db,
    ): Promise<void> {
      await tx.transaction(async (tx) => {
        // Serialises concurrent requests for the same user (one live code per user).
        await tx.execute(sql`select 1 from ${users} where ${users.id} = ${input.userId} for update`);
        await tx
          .update(loginCodes)
          .set({ voidedAt: input.now })
          .where(and(eq(loginCodes.userId, input.userId), isNull(loginCodes.consumedAt), isNull(loginCodes.voidedAt)));
        await tx.insert(loginCodes).values({
          userId: input.userId,
          codeHash: input.codeHash,
          reason: input.reason,
          requestedIp: input.ip,
          createdAt: input.now,
          expiresAt: input.expiresAt,
        });
      });
    },

    /**
     * Takes one attempt on the user's live, unexpired code with attempts left: increments its
     * counter first, so concurrent guesses can never make more than `maxAttempts` comparisons.
     */
    async takeCodeAttempt(
      userId: string,
      now: Date,
      maxAttempts: number,
      tx: DbOrTx = db,
    ): Promise<{ id: string; codeHash: string; attempts: number } | undefined> {
      const [row] = await tx
        .update(loginCodes)
        .set({ attempts: sql`${loginCodes.attempts} + 1` })
        .where(
          and(
            eq(loginCodes.userId, userId),
            isNull(loginCodes.consumedAt),
            isNull(loginCodes.voidedAt),
            gt(loginCodes.expiresAt, now),
            lt(loginCodes.attempts, maxAttempts),
          ),
        )
        .returning({ id: loginCodes.id, codeHash: loginCodes.codeHash, attempts: loginCodes.attempts });
      return row;
    },

    /** Marks the code used; false if it was consumed or voided meanwhile. */
    async consumeCode(codeId: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(loginCodes)
        .set({ consumedAt: now })
        .where(and(eq(loginCodes.id, codeId), isNull(loginCodes.consumedAt), isNull(loginCodes.voidedAt)))
        .returning({ id: loginCodes.id });
      return rows.length === 1;
    },

    async voidCode(codeId: string, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(loginCodes)
        .set({ voidedAt: now })
        .where(and(eq(loginCodes.id, codeId), isNull(loginCodes.consumedAt), isNull(loginCodes.voidedAt)));
    },

    async voidLiveCodes(userId: string, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(loginCodes)
        .set({ voidedAt: now })
        .where(and(eq(loginCodes.userId, userId), isNull(loginCodes.consumedAt), isNull(loginCodes.voidedAt)));
    },

    async createSession(
      input: {
        userId: string;
        tokenHash: string;
        remainLogin: boolean;
        ip: string | null;
        userAgent: string | null;
        now: Date;
        expiresAt: Date;
      },
      tx: DbOrTx = db,
    ): Promise<string> {
      const [row] = await tx
        .insert(sessions)
        .values({
          userId: input.userId,
          tokenHash: input.tokenHash,
          remainLogin: input.remainLogin,
          ip: input.ip,
          userAgent: input.userAgent,
          createdAt: input.now,
          lastSeenAt: input.now,
          expiresAt: input.expiresAt,
        })
        .returning({ id: sessions.id });
      return row!.id;
    },

    /** The live session of a token hash, with its account; undefined if unknown, revoked, expired or deactivated. */
    async findLiveSession(tokenHash: string, now: Date, tx: DbOrTx = db) {
      const [row] = await liveSessionByTokenHash(tx).execute({ tokenHash, now });
      return row;
    },

    /** Records use of a session; `expiresAt` moves only for remain-login sessions. */
    async touchSession(sessionId: string, now: Date, expiresAt?: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(sessions)
        .set(expiresAt ? { lastSeenAt: now, expiresAt } : { lastSeenAt: now })
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },

    async revokeSessionByTokenHash(tokenHash: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      return (await revokeSessionsWhere(eq(sessions.tokenHash, tokenHash), now, tx)) > 0;
    },

    /** The user's live sessions (not revoked, not expired), most recently used first. */
    async listLiveSessions(userId: string, now: Date, tx: DbOrTx = db) {
      return tx
        .select({
          id: sessions.id,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
          remainLogin: sessions.remainLogin,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
    },

    /** Ends one live session of this user; false when it is unknown, someone else's or already over. */
    async revokeUserSession(userId: string, sessionId: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const condition = and(eq(sessions.id, sessionId), eq(sessions.userId, userId), gt(sessions.expiresAt, now));
      return (await revokeSessionsWhere(condition, now, tx)) === 1;
    },

    /** Ends every session of a user; returns how many were live. */
    revokeAllSessions: (userId: string, now: Date, tx: DbOrTx = db): Promise<number> =>
      revokeSessionsWhere(eq(sessions.userId, userId), now, tx),

    /**
     * Counts each check's events inside its window and, when every check is under its limit,
     * records one event per distinct (kind, subject). Advisory locks on each (kind, subject)
     * make the count-then-insert atomic across processes; a refused request records nothing,
     * so waiting out the window always works.
     */
    async consumeRateLimits(checks: RateLimitCheck[], now: Date, tx: DbOrTx = db): Promise<RateLimitVerdict> {
      const keys = [...new Map(checks.map((c) => [`${c.kind} ${c.subject}`, c])).entries()].sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      return tx.transaction(async (tx) => {
        for (const [key] of keys) {
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`auth-limit:${key}`}, 0))`);
        }
        for (const check of checks) {
          const verdict = await windowVerdict(check, now, tx);
          if (!verdict.ok) return verdict;
        }
        await tx
          .insert(authAttempts)
          .values(keys.map(([, c]) => ({ kind: c.kind, subject: c.subject, createdAt: now })));
        return { ok: true as const };
      });
    },

    /** Whether a check is under its limit now, without recording anything. */
    async checkRateLimit(check: RateLimitCheck, now: Date, tx: DbOrTx = db): Promise<RateLimitVerdict> {
      return windowVerdict(check, now, tx);
    },

    async recordAttempt(kind: string, subject: string, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.insert(authAttempts).values({ kind, subject, createdAt: now });
    },

    /**
     * Deletes what no rule needs any more: limit events and codes older than two days, sessions
     * dead for two days. Housekeeping runs on the database's own clock, never the injected one:
     * a test clock set in the future must not delete other processes' live rows.
     */
    async prune(tx: DbOrTx = db): Promise<void> {
      const before = sql`now() - interval '2 days'`;
      await tx.delete(authAttempts).where(lt(authAttempts.createdAt, before));
      await tx.delete(loginCodes).where(lt(loginCodes.createdAt, before));
      await tx.delete(sessions).where(lt(sessions.expiresAt, before));
    },
  };
}

async function windowVerdict(check: RateLimitCheck, now: Date, tx: DbOrTx): Promise<RateLimitVerdict> {
  const since = new Date(now.getTime() - check.windowMs);
  const where = and(
    eq(authAttempts.kind, check.kind),
    eq(authAttempts.subject, check.subject),
    gt(authAttempts.createdAt, since),
  );
  const [counted] = await tx.select({ n: count() }).from(authAttempts).where(where);
  const n = Number(counted?.n ?? 0);
  if (n < check.limit) return { ok: true };
  // The window reopens when enough of the oldest events have aged out to bring the count under the limit.
  const [pivot] = await tx
    .select({ createdAt: authAttempts.createdAt })
    .from(authAttempts)
    .where(where)
    .orderBy(asc(authAttempts.createdAt))
    .offset(n - check.limit)
    .limit(1);
  const reopensAt = (pivot?.createdAt ?? now).getTime() + check.windowMs;
  return { ok: false, check, retryAfterMs: Math.max(1000, reopensAt - now.getTime()) };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
