import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb } from './ledger.test-support.ts';

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`administrators' adjustments (${dbKind})`, () => {
  it('each adjustment is its own reference (admin_adjustment + a new id); the administrator is the actor', async () => {
    const user = await insertTestUser(handle.db);
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const base = { userId: user.id, actorUserId: admin.id, type: 'BALANCE' as const };
    const first = await ledger.adjust({ ...base, amount: 50_00, reason: 'cortesia', idempotencyKey: 'adj-1' });
    const second = await ledger.adjust({ ...base, amount: -20_00, reason: 'correção' });
    for (const { entry } of [first, second]) {
      expect(entry).toMatchObject({
        kind: 'ADMIN_ADJUSTMENT',
        referenceType: 'admin_adjustment',
        actorUserId: admin.id,
      });
      expect(entry.referenceId).toMatch(UUID);
      expect(entry.referenceId).not.toBe(admin.id);
    }
    expect(second.entry.referenceId).not.toBe(first.entry.referenceId);
    // A retry answers the first adjustment, with its reference.
    const retry = await ledger.adjust({ ...base, amount: 50_00, reason: 'cortesia', idempotencyKey: 'adj-1' });
    expect(retry).toMatchObject({
      replayed: true,
      entry: { id: first.entry.id, referenceId: first.entry.referenceId },
    });
    expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(30_00);
    expect((await ledger.reconcile(user.id)).mismatches).toEqual([]);
  });

  it('an unknown user is USER_NOT_FOUND for increases and decreases, and nothing is written', async () => {
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    for (const amount of [5, -5]) {
      const userId = crypto.randomUUID();
      const err = await ledger
        .adjust({ userId, actorUserId: admin.id, type: 'URA', amount, reason: 'r' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('USER_NOT_FOUND');
      expect((await ledger.listEntries(userId, { page: 1, pageSize: 5 })).total).toBe(0);
    }
  });

  it('checks the user in the transaction it runs in (an adjustment inside an outer transaction)', async () => {
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    // A user created in a transaction that is then rolled back: the adjustment made in it goes too.
    const userId = await handle.db
      .transaction(async (tx) => {
        const user = await insertTestUser(tx as unknown as DbHandle['db']);
        await ledger.adjust({ userId: user.id, actorUserId: admin.id, type: 'RCS', amount: 9, reason: 'r', tx });
        throw Object.assign(new Error('rollback'), { userId: user.id });
      })
      .catch((e: { userId?: string }) => e.userId);
    expect(userId).toBeDefined();
    const err = await ledger
      .adjust({ userId: userId!, actorUserId: admin.id, type: 'RCS', amount: 9, reason: 'r' })
      .catch((e: unknown) => e);
    expect((err as AppError).code).toBe('USER_NOT_FOUND');
  });
});
