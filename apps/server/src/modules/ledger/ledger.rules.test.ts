import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

/** The ledger service's guards and its reconciliation, on the real database. */
describe(`ledger service guards (${dbKind})`, () => {
  let server: RunningServer;
  let userId: string;
  beforeAll(async () => {
    server = await createTestServer({ work: false });
    userId = (await signUpAndSignIn(server)).user.id;
  });
  afterAll(async () => {
    await server?.close();
  });
  const ledger = () => server.modules.ledger;

  it('knows whether a user exists (the admin routes’ 404)', async () => {
    await expect(ledger().assertUserExists(userId)).resolves.toBeUndefined();
    await expect(ledger().assertUserExists(randomUUID())).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
      status: 404,
    });
  });

  it('credits and debits only with their own kinds (a programming error, said plainly)', () => {
    const base = { userId, type: 'SMSSHORT' as const, amount: 1 };
    expect(() => ledger().credit({ ...base, kind: 'RESERVE' })).toThrow('credit(): kind RESERVE is not a credit');
    expect(() => ledger().debit({ ...base, kind: 'PURCHASE' })).toThrow('debit(): kind PURCHASE is not a debit');
  });

  it('refuses an adjustment of zero or a fraction with VALIDATION_FAILED', async () => {
    const admin = (await signUpAndSignIn(server)).user.id;
    for (const amount of [0, 1.5]) {
      await expect(
        ledger().adjust({ userId, type: 'SMSSHORT', amount, actorUserId: admin, reason: 'teste' }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    }
  });

  it('reconciles the entries with the balances, naming a type that disagrees with both figures', async () => {
    const own = (await signUpAndSignIn(server)).user.id;
    expect(await ledger().reconcile(own)).toEqual({ ok: true, mismatches: [] });
    const before = (await ledger().getBalances(own)).SMSSHORT;
    // A balance changed behind the ledger's back (no entry): what reconcile exists to find.
    await server.db.executeSql(
      "update credit_balances set available = available + 7, reserved = reserved + 2 where user_id = $1 and type = 'SMSSHORT'",
      [own],
    );
    expect(await ledger().reconcile(own)).toEqual({
      ok: false,
      mismatches: [
        {
          type: 'SMSSHORT',
          balance: { available: before.available + 7, reserved: before.reserved + 2 },
          entries: { available: before.available, reserved: before.reserved },
        },
      ],
    });
  });
});
