import { CENTAVOS_PER_REAL, PRICE_SCALE, type PriceTableKey, type PublicUser, type SignupPayload } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Logger } from '../../platform/logger.ts';
import type { LiveSession } from '../auth/index.ts';
import type { NewUser, UsersRepository } from './users.repository.ts';
import { PRICE_COLUMNS, type UserRow } from './users.schema.ts';

const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** The validated sign-up payload (the shared zod schema's output). */
export type SignupInput = Omit<SignupPayload, 'priceTable'> & {
  cnpj: string;
  mobilePhone: string;
  priceTable?: Partial<Record<PriceTableKey, number>>;
};

export type UsersServiceDeps = {
  db: Database;
  repo: UsersRepository;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** The money balance in centavos; the ledger provides it (0 until it is wired). */
  getMoneyBalanceCentavos?: (userId: string) => Promise<number>;
  /** Ends every session of a user (and voids its live code), in the given transaction. */
  endAllSessions: (userId: string, tx: DbOrTx) => Promise<unknown>;
  /** Refuses a sign-up past the abuse limits (the auth module counts them per client IP). */
  allowSignup?: (meta: { ip: string | null }) => Promise<void>;
  /** Runs inside the sign-up transaction (e.g. the welcome bonus). */
  onUserCreated?: (user: UserRow, tx: DbOrTx) => Promise<void>;
  /** The auth module's session check with our own lookup (`/api/me` in one statement). */
  authenticateWith: <T extends LiveSession>(
    token: string,
    lookup: (tokenHash: string, now: Date) => Promise<T | undefined>,
  ) => Promise<T | null>;
};

export function toPublicUser(row: UserRow, moneyCentavos: number, publicUrl: string): PublicUser {
  const priceTable = Object.fromEntries(
    Object.entries(PRICE_COLUMNS).map(([key, column]) => [key, (row[column] as number) / PRICE_SCALE]),
  ) as Record<PriceTableKey, number>;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    accessLevel: row.accessLevel,
    isNewUser: row.isNewUser,
    userProfileImageLink: row.profileImagePath ? `${publicUrl}/${row.profileImagePath.replace(/^\/+/, '')}` : null,
    balance: { money: moneyCentavos / CENTAVOS_PER_REAL },
    permissions: { enriched: [...row.permissionsEnriched] },
    priceTable,
  };
}

/** Accounts: sign-up, the current user, the ADMIN_EMAIL administrator, deactivation. */
export function createUsersService(deps: UsersServiceDeps) {
  const { db, repo, clock } = deps;
  const log = deps.logger.child({ module: 'users' });
  const moneyOf = deps.getMoneyBalanceCentavos ?? (async () => 0);

  async function getPublicUser(userId: string): Promise<PublicUser> {
    const row = await repo.findById(userId);
    if (!row) throw new AppError('USER_NOT_FOUND');
    return toPublicUser(row, await moneyOf(userId), deps.publicUrl);
  }

  return {
    getPublicUser,

    /**
     * `GET /api/me`: the account of a session token, with its balance. The route has no guard:
     * this is the guard's check and the read in one statement (the screen every page loads).
     */
    async getMe(token: string | undefined): Promise<PublicUser> {
      if (!token) throw new AppError('UNAUTHORIZED', undefined, { why: 'signIn' });
      const me = await deps.authenticateWith(token, repo.findMe);
      if (!me) throw new AppError('UNAUTHORIZED');
      return toPublicUser(me.user, me.moneyCentavos ?? 0, deps.publicUrl);
    },

    /** `POST /api/user`: a company account, active, new, with the sign-up price table (all 0). */
    async signUp(input: SignupInput, meta: { ip: string | null } = { ip: null }): Promise<PublicUser> {
      const prices = input.priceTable ?? {};
      // Prices are set by the Ecoa team; a self-service price would let anyone buy credits cheap.
      if (Object.values(prices).some((v) => v !== undefined && v !== 0)) {
        throw new AppError('PRICE_TABLE_NOT_ALLOWED');
      }
      await deps.allowSignup?.(meta);
      const utm = Object.fromEntries(
        UTM_FIELDS.flatMap((field) => (input[field] ? [[field, input[field] as string]] : [])),
      ) as Record<string, string>;
      const values: NewUser = {
        email: input.email.trim().toLowerCase(),
        name: input.name.trim(),
        fantasyName: input.fantasyName?.trim() || input.name.trim(),
        fullName: input.fullName.trim(),
        cnpj: input.cnpj,
        mobilePhone: input.mobilePhone,
        language: input.language ?? 'pt',
        isNewUser: true,
        active: true,
        accessLevel: 'USER',
        termsAcceptedAt: clock.now(),
        signupUtm: Object.keys(utm).length ? utm : null,
        ...Object.fromEntries(Object.values(PRICE_COLUMNS).map((column) => [column, 0])),
      };
      const created = await db.transaction(async (tx) => {
        const row = await repo.insert(values, tx);
        if (!row) return undefined;
        await deps.onUserCreated?.(row, tx);
        return row;
      });
      if (!created) throw new AppError('EMAIL_ALREADY_REGISTERED');
      log.info({ userId: created.id, utm: created.signupUtm ?? undefined }, 'account created');
      return toPublicUser(created, await moneyOf(created.id), deps.publicUrl);
    },

    /**
     * `ADMIN_EMAIL` on start: makes that account an active ADMINISTRATOR, creating it with
     * placeholder company data when it does not exist (the administrator fills it in later).
     */
    async ensureAdmin(email: string): Promise<UserRow> {
      const normalised = email.trim().toLowerCase();
      const existing = await repo.findByEmail(normalised);
      if (existing) {
        if (existing.accessLevel === 'ADMINISTRATOR' && existing.active) return existing;
        const promoted = await repo.promoteToAdmin(existing.id);
        log.info({ userId: existing.id }, 'ADMIN_EMAIL: existing account made an active administrator');
        return promoted!;
      }
      const inserted = await repo.insert({
        email: normalised,
        name: 'Ecoa',
        fantasyName: 'Ecoa',
        fullName: 'Administrador',
        cnpj: '00000000000000',
        mobilePhone: '00000000000',
        accessLevel: 'ADMINISTRATOR',
        active: true,
        isNewUser: false,
      });
      if (inserted) {
        log.info({ userId: inserted.id }, 'ADMIN_EMAIL: administrator account created');
        return inserted;
      }
      // Another process created it between our read and insert: promote that one.
      const raced = await repo.findByEmail(normalised);
      if (!raced) throw new AppError('ADMIN_BOOTSTRAP_FAILED');
      return (await repo.promoteToAdmin(raced.id))!;
    },

    /** Deactivates an account and ends all its sessions at once (one transaction). */
    async deactivate(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.setActive(userId, false, tx);
        if (!row) throw new AppError('USER_NOT_FOUND');
        await deps.endAllSessions(userId, tx);
      });
      log.info({ userId }, 'account deactivated; sessions ended');
    },

    /** The account's `permissions.enriched` (none when it does not exist): what the enrichment rule reads. */
    async enrichmentPermissions(userId: string): Promise<string[]> {
      return (await repo.findById(userId))?.permissionsEnriched ?? [];
    },

    async reactivate(userId: string): Promise<void> {
      const row = await repo.setActive(userId, true);
      if (!row) throw new AppError('USER_NOT_FOUND');
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
