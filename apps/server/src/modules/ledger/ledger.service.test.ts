import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { users } from '../users/users.schema.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { createLedgerService, type LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb, type TestPrices } from './ledger.test-support.ts';

let handle: DbHandle;
let ledger: LedgerService;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
afterAll(() => handle?.close());

const newUser = (prices: TestPrices = {}) => insertTestUser(handle.db, prices);

/** A user holding `centavos` of money, bought through an admin payment like in real life. */
async function userWithMoney(centavos: number, prices: TestPrices = {}) {
  const user = await newUser(prices);
  const admin = await newUser();
  if (centavos > 0) {
    await ledger.recordManualPayment({
      userId: user.id,
      amountCentavos: centavos,
      method: 'PIX',
      actorUserId: admin.id,
      reason: 'saldo de teste',
    });
  }
  return user;
}

async function expectAppError(promise: Promise<unknown>, code: string, message?: string): Promise<AppError> {
  const err = await promise.then(
    () => {
      throw new Error(`expected ${code}, but it succeeded`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  if (message !== undefined) expect((err as AppError).message).toBe(message);
  return err as AppError;
}

async function expectReconciled(userId: string) {
  const result = await ledger.reconcile(userId);
  expect(result.mismatches).toEqual([]);
}

describe(`ledger service (${dbKind})`, () => {
  describe('credit and debit', () => {
    it('credits and debits with one entry each; balance_after follows', async () => {
      const user = await newUser();
      const c = await ledger.credit({ userId: user.id, type: 'SMSSHORT', amount: 100, kind: 'ADMIN_ADJUSTMENT' });
      expect(c.balance).toEqual({ available: 100, reserved: 0 });
      expect(c.entry).toMatchObject({ kind: 'ADMIN_ADJUSTMENT', amount: 100, balanceAfter: 100, type: 'SMSSHORT' });
      const d = await ledger.debit({ userId: user.id, type: 'SMSSHORT', amount: 30, kind: 'ENRICHMENT_CHARGE' });
      expect(d.balance).toEqual({ available: 70, reserved: 0 });
      expect(d.entry).toMatchObject({ amount: -30, balanceAfter: 70 });
      const balances = await ledger.getBalances(user.id);
      expect(balances.SMSSHORT).toEqual({ available: 70, reserved: 0 });
      expect(balances.WHATSAPP).toEqual({ available: 0, reserved: 0 });
      expect(Object.keys(balances)).toHaveLength(8);
      await expectReconciled(user.id);
    });

    it('refuses a debit beyond the balance and writes nothing', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'URA', amount: 10, kind: 'ADMIN_ADJUSTMENT' });
      const err = await expectAppError(
        ledger.debit({ userId: user.id, type: 'URA', amount: 11, kind: 'ENRICHMENT_CHARGE' }),
        'INSUFFICIENT_BALANCE',
      );
      expect(err.status).toBe(400);
      expect(err.details).toMatchObject({ available: 10, requested: 11 });
      await expectAppError(
        ledger.debit({ userId: user.id, type: 'RCS', amount: 1, kind: 'ENRICHMENT_CHARGE' }),
        'INSUFFICIENT_BALANCE',
      );
      const page = await ledger.listEntries(user.id, { page: 1, pageSize: 10 });
      expect(page.total).toBe(1);
      await expectReconciled(user.id);
    });

    it('refuses non-integer, zero and negative amounts', async () => {
      const user = await newUser();
      for (const amount of [0, -1, 1.5, Number.NaN]) {
        await expectAppError(
          ledger.credit({ userId: user.id, type: 'URA', amount, kind: 'ADMIN_ADJUSTMENT' }),
          'INVALID_AMOUNT',
        );
      }
    });

    it('answers USER_NOT_FOUND for an unknown user', async () => {
      await expectAppError(
        ledger.credit({ userId: crypto.randomUUID(), type: 'URA', amount: 1, kind: 'ADMIN_ADJUSTMENT' }),
        'USER_NOT_FOUND',
      );
    });
  });

  describe('money balances of many users (the users table of administrators)', () => {
    it('reads every balance of a page in one repository call, 0 for users without money', async () => {
      const rich = await userWithMoney(150_00);
      const holding = await userWithMoney(20_00);
      await ledger.reserve({
        userId: holding.id,
        type: 'BALANCE',
        amount: 5_00,
        reference: { type: 'campaign', id: crypto.randomUUID() },
      });
      const creditsOnly = await newUser();
      await ledger.credit({ userId: creditsOnly.id, type: 'SMSSHORT', amount: 700, kind: 'ADMIN_ADJUSTMENT' });
      const nothing = await newUser();
      const unknown = crypto.randomUUID();

      const repo = createLedgerRepository(handle.db);
      let calls = 0;
      const counted = createLedgerService({
        repo: {
          ...repo,
          getAvailableOfUsers: (ids, type) => {
            calls++;
            return repo.getAvailableOfUsers(ids, type);
          },
        },
        clock: { now: () => new Date() },
      });
      const ids = [rich.id, holding.id, creditsOnly.id, nothing.id, unknown, rich.id];
      const balances = await counted.getMoneyBalancesCentavos(ids);
      expect(calls).toBe(1);
      expect([...balances.entries()]).toEqual([
        [rich.id, 150_00],
        [holding.id, 15_00], // available only: what a campaign reserved is not spendable
        [creditsOnly.id, 0], // other credit types are not money
        [nothing.id, 0],
        [unknown, 0],
      ]);
      for (const id of [rich.id, holding.id, creditsOnly.id, nothing.id]) {
        expect(balances.get(id)).toBe(await ledger.getMoneyBalanceCentavos(id));
      }
      expect((await counted.getMoneyBalancesCentavos([])).size).toBe(0);
      expect(calls).toBe(2);
    });

    it('reads a thousand users at once', async () => {
      const user = await userWithMoney(1_23);
      const others = Array.from({ length: 999 }, () => crypto.randomUUID());
      const balances = await ledger.getMoneyBalancesCentavos([...others, user.id]);
      expect(balances.size).toBe(1000);
      expect(balances.get(user.id)).toBe(1_23);
      expect(balances.get(others[0]!)).toBe(0);
    });
  });

  describe('the database itself', () => {
    it('makes a negative balance impossible (CHECK), whatever the code does', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'SMSFLASH', amount: 5, kind: 'ADMIN_ADJUSTMENT' });
      await expect(
        handle.db.execute(
          sql`update credit_balances set available = available - 6 where user_id = ${user.id} and type = 'SMSFLASH'`,
        ),
      ).rejects.toThrow();
      await expect(
        handle.db.execute(
          sql`update credit_balances set reserved = -1 where user_id = ${user.id} and type = 'SMSFLASH'`,
        ),
      ).rejects.toThrow();
      expect((await ledger.getBalances(user.id)).SMSFLASH.available).toBe(5);
    });

    it('keeps the ledger append-only (UPDATE and DELETE refused)', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'SMSFLASH', amount: 5, kind: 'ADMIN_ADJUSTMENT' });
      await expect(
        handle.db.execute(sql`update ledger_entries set amount = 500 where user_id = ${user.id}`),
      ).rejects.toThrow();
      await expect(handle.db.execute(sql`delete from ledger_entries where user_id = ${user.id}`)).rejects.toThrow();
      await expectReconciled(user.id);
    });
  });

  describe('idempotency', () => {
    it('a retry with the same key changes nothing and answers the first result', async () => {
      const user = await newUser();
      const first = await ledger.credit({
        userId: user.id,
        type: 'RCS',
        amount: 40,
        kind: 'ADMIN_ADJUSTMENT',
        idempotencyKey: 'k-1',
      });
      await ledger.credit({ userId: user.id, type: 'RCS', amount: 1, kind: 'ADMIN_ADJUSTMENT' });
      const again = await ledger.credit({
        userId: user.id,
        type: 'RCS',
        amount: 40,
        kind: 'ADMIN_ADJUSTMENT',
        idempotencyKey: 'k-1',
      });
      expect(again.replayed).toBe(true);
      expect(again.entry.id).toBe(first.entry.id);
      expect(again.balance).toEqual({ available: 40, reserved: 0 }); // the original result
      expect((await ledger.getBalances(user.id)).RCS.available).toBe(41);
      await expectReconciled(user.id);
    });

    it('refuses the same key for a different operation (409)', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'RCS', amount: 40, kind: 'ADMIN_ADJUSTMENT', idempotencyKey: 'k' });
      const err = await expectAppError(
        ledger.credit({ userId: user.id, type: 'RCS', amount: 41, kind: 'ADMIN_ADJUSTMENT', idempotencyKey: 'k' }),
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect(err.status).toBe(409);
    });

    it('keys are per user', async () => {
      const a = await newUser();
      const b = await newUser();
      await ledger.credit({ userId: a.id, type: 'URA', amount: 3, kind: 'ADMIN_ADJUSTMENT', idempotencyKey: 'same' });
      const r = await ledger.credit({
        userId: b.id,
        type: 'URA',
        amount: 3,
        kind: 'ADMIN_ADJUSTMENT',
        idempotencyKey: 'same',
      });
      expect(r.replayed).toBe(false);
    });

    it('20 concurrent calls with one key apply once', async () => {
      const user = await newUser();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          ledger.credit({ userId: user.id, type: 'ENRICHED', amount: 7, kind: 'PURCHASE', idempotencyKey: 'burst' }),
        ),
      );
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
      expect((await ledger.getBalances(user.id)).ENRICHED.available).toBe(7);
      await expectReconciled(user.id);
    });
  });

  describe('transfer from money to credits', () => {
    it('moves money out and credits in together, at the unit price', async () => {
      const user = await userWithMoney(100_00, { priceSmsShort: 850 }); // R$ 100,00; R$ 0,085 each
      const r = await ledger.transfer({ userId: user.id, type: 'SMSSHORT', quantity: 1000 });
      expect(r).toMatchObject({ quantity: 1000, unitPrice: 850, costCentavos: 85_00, replayed: false });
      expect(r.money).toEqual({ available: 15_00, reserved: 0 });
      expect(r.credits).toEqual({ available: 1000, reserved: 0 });
      expect(r.entries.map((e) => [e.type, e.kind, e.amount, e.referenceId])).toEqual([
        ['BALANCE', 'TRANSFER_OUT', -85_00, r.transferId],
        ['SMSSHORT', 'TRANSFER_IN', 1000, r.transferId],
      ]);
      expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(15_00);
      await expectReconciled(user.id);
    });

    it('refuses a price of 0 (not configured) with a clear message', async () => {
      const user = await userWithMoney(1000_00, { priceSmsShort: 850 });
      const err = await expectAppError(
        ledger.transfer({ userId: user.id, type: 'RCS', quantity: 1 }),
        'PRICE_NOT_CONFIGURED',
      );
      expect(err.status).toBe(400);
      expect(err.message).toMatch(/não foi configurado/);
      expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(1000_00);
    });

    it('Quantidade inválida exactly when the cost, rounded up to the centavo, exceeds the balance', async () => {
      // 100 × R$ 0,085 = R$ 8,50 exactly
      const exact = await userWithMoney(8_50, { priceSmsShort: 850 });
      await expectAppError(
        ledger.transfer({ userId: exact.id, type: 'SMSSHORT', quantity: 101 }),
        'INVALID_QUANTITY',
        'Quantidade inválida',
      );
      const ok = await ledger.transfer({ userId: exact.id, type: 'SMSSHORT', quantity: 100 });
      expect(ok.money.available).toBe(0);

      // 1 × R$ 0,085 = 8,5 centavos → 9 centavos: 8 is not enough, 9 is.
      const eight = await userWithMoney(8, { priceSmsFlash: 850 });
      await expectAppError(
        ledger.transfer({ userId: eight.id, type: 'SMSFLASH', quantity: 1 }),
        'INVALID_QUANTITY',
        'Quantidade inválida',
      );
      const nine = await userWithMoney(9, { priceSmsFlash: 850 });
      const r = await ledger.transfer({ userId: nine.id, type: 'SMSFLASH', quantity: 1 });
      expect(r.costCentavos).toBe(9);
      expect(r.money.available).toBe(0);

      // 3 × R$ 0,3333 = R$ 0,9999 → R$ 1,00
      const one = await userWithMoney(99, { priceUra: 3333 });
      await expectAppError(ledger.transfer({ userId: one.id, type: 'URA', quantity: 3 }), 'INVALID_QUANTITY');
      expect((await ledger.transfer({ userId: one.id, type: 'URA', quantity: 2 })).costCentavos).toBe(67);

      const broke = await newUser({ priceSmsShort: 850 });
      await expectAppError(ledger.transfer({ userId: broke.id, type: 'SMSSHORT', quantity: 1 }), 'INVALID_QUANTITY');
      for (const u of [exact, eight, nine, one]) await expectReconciled(u.id);
    });

    it('refuses quantities that are not positive integers', async () => {
      const user = await userWithMoney(100_00, { priceSmsShort: 850 });
      for (const quantity of [0, -5, 2.5]) {
        await expectAppError(ledger.transfer({ userId: user.id, type: 'SMSSHORT', quantity }), 'INVALID_QUANTITY');
      }
    });

    it('WhatsApp: refused when amount + money balance in reais is under 3000', async () => {
      const msg = 'O valor mínimo para créditos WhatsApp é de 3000.';
      // R$ 2.998,99 + 1 = 2999,99 < 3000 → refused; + 2 = 3000,99 → allowed
      const under = await userWithMoney(2998_99, { priceWhatsapp: 1000 }); // R$ 0,10 each
      await expectAppError(
        ledger.transfer({ userId: under.id, type: 'WHATSAPP', quantity: 1 }),
        'WHATSAPP_MINIMUM',
        msg,
      );
      const r = await ledger.transfer({ userId: under.id, type: 'WHATSAPP', quantity: 2 });
      expect(r.costCentavos).toBe(20);
      // R$ 2.999,00 + 1 = exactly 3000 → allowed (the rule is "under 3000")
      const edge = await userWithMoney(2999_00, { priceWhatsapp: 1000 });
      expect((await ledger.transfer({ userId: edge.id, type: 'WHATSAPP', quantity: 1 })).credits.available).toBe(1);
      // A big quantity with a small balance passes the minimum but not the balance check.
      const small = await userWithMoney(10_00, { priceWhatsapp: 1000 });
      await expectAppError(ledger.transfer({ userId: small.id, type: 'WHATSAPP', quantity: 100 }), 'WHATSAPP_MINIMUM');
      await expectAppError(
        ledger.transfer({ userId: small.id, type: 'WHATSAPP', quantity: 3000 }),
        'INVALID_QUANTITY',
        'Quantidade inválida',
      );
      // Other types have no such minimum.
      const sms = await userWithMoney(10_00, { priceSmsShort: 1000 });
      expect((await ledger.transfer({ userId: sms.id, type: 'SMSSHORT', quantity: 1 })).costCentavos).toBe(10);
    });

    it('is idempotent with a key (the retry answers the first transfer)', async () => {
      const user = await userWithMoney(50_00, { priceRcs: 10000 }); // R$ 1,00 each
      const first = await ledger.transfer({ userId: user.id, type: 'RCS', quantity: 10, idempotencyKey: 't-1' });
      const again = await ledger.transfer({ userId: user.id, type: 'RCS', quantity: 10, idempotencyKey: 't-1' });
      expect(again).toMatchObject({
        transferId: first.transferId,
        costCentavos: 10_00,
        unitPrice: 10000,
        replayed: true,
        money: first.money,
        credits: first.credits,
      });
      expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(40_00);
      await expectAppError(
        ledger.transfer({ userId: user.id, type: 'RCS', quantity: 11, idempotencyKey: 't-1' }),
        'IDEMPOTENCY_KEY_REUSED',
      );
      await expectReconciled(user.id);
    });

    it('50 parallel transfers never overdraw, and the entries sum to the balances', async () => {
      const user = await userWithMoney(200_00, { priceSmsShort: 10000 }); // R$ 1,00 each
      const outcomes = await Promise.allSettled(
        Array.from({ length: 50 }, () => ledger.transfer({ userId: user.id, type: 'SMSSHORT', quantity: 10 })),
      );
      const ok = outcomes.filter((o) => o.status === 'fulfilled');
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect(ok).toHaveLength(20);
      for (const r of refused) expect(((r as PromiseRejectedResult).reason as AppError).code).toBe('INVALID_QUANTITY');
      const balances = await ledger.getBalances(user.id);
      expect(balances.BALANCE.available).toBe(0);
      expect(balances.SMSSHORT.available).toBe(200);
      await expectReconciled(user.id);
    });

    it('parallel debits of mixed sizes never overdraw', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'SMSFLASH', amount: 1000, kind: 'ADMIN_ADJUSTMENT' });
      const sizes = Array.from({ length: 50 }, (_, i) => 10 + ((i * 37) % 60));
      const outcomes = await Promise.allSettled(
        sizes.map((amount) => ledger.debit({ userId: user.id, type: 'SMSFLASH', amount, kind: 'ENRICHMENT_CHARGE' })),
      );
      const spent = outcomes.reduce((sum, o, i) => (o.status === 'fulfilled' ? sum + sizes[i]! : sum), 0);
      const balance = (await ledger.getBalances(user.id)).SMSFLASH.available;
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(1000 - spent);
      expect(balance).toBeLessThan(Math.max(...sizes)); // it stopped only when nearly empty
      await expectReconciled(user.id);
    });
  });

  describe('reserve, capture and release (campaigns)', () => {
    const campaign = (id: string) => ({ type: 'campaign', id });

    it('reserve holds, capture consumes, release returns', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'SMSSHORT', amount: 150, kind: 'ADMIN_ADJUSTMENT' });
      const c1 = campaign(crypto.randomUUID());
      const r = await ledger.reserve({ userId: user.id, type: 'SMSSHORT', amount: 100, reference: c1 });
      expect(r.balance).toEqual({ available: 50, reserved: 100 });
      expect(r.entry).toMatchObject({ kind: 'RESERVE', amount: -100, reservedDelta: 100, reservedAfter: 100 });
      const cap = await ledger.capture({ userId: user.id, type: 'SMSSHORT', amount: 60, reference: c1 });
      expect(cap.balance).toEqual({ available: 50, reserved: 40 });
      expect(cap.entry).toMatchObject({ kind: 'CAPTURE', amount: 0, reservedDelta: -60 });
      expect(await ledger.outstandingReservation(user.id, 'SMSSHORT', c1)).toBe(40);
      const rel = await ledger.release({ userId: user.id, type: 'SMSSHORT', amount: 40, reference: c1 });
      expect(rel.balance).toEqual({ available: 90, reserved: 0 });
      expect(rel.entry).toMatchObject({ kind: 'RELEASE', amount: 40, reservedDelta: -40 });
      await expectReconciled(user.id);
    });

    it('cannot reserve more than available, nor settle more than the reference holds', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'URA', amount: 100, kind: 'ADMIN_ADJUSTMENT' });
      await expectAppError(
        ledger.reserve({ userId: user.id, type: 'URA', amount: 101, reference: campaign('a') }),
        'INSUFFICIENT_BALANCE',
      );
      await ledger.reserve({ userId: user.id, type: 'URA', amount: 30, reference: campaign('a') });
      await ledger.reserve({ userId: user.id, type: 'URA', amount: 50, reference: campaign('b') });
      // campaign a holds 30: it cannot capture b's credits
      await expectAppError(
        ledger.capture({ userId: user.id, type: 'URA', amount: 31, reference: campaign('a') }),
        'RESERVATION_EXCEEDED',
      );
      await expectAppError(
        ledger.release({ userId: user.id, type: 'URA', amount: 1, reference: campaign('nothing') }),
        'RESERVATION_EXCEEDED',
      );
      await ledger.capture({ userId: user.id, type: 'URA', amount: 30, reference: campaign('a') });
      await expectAppError(
        ledger.capture({ userId: user.id, type: 'URA', amount: 1, reference: campaign('a') }),
        'RESERVATION_EXCEEDED',
      );
      expect((await ledger.getBalances(user.id)).URA).toEqual({ available: 20, reserved: 50 });
      await expectReconciled(user.id);
    });

    it('idempotent captures (a retried batch is charged once)', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'RCS', amount: 10, kind: 'ADMIN_ADJUSTMENT' });
      await ledger.reserve({ userId: user.id, type: 'RCS', amount: 10, reference: campaign('x') });
      const args = { userId: user.id, type: 'RCS' as const, amount: 4, reference: campaign('x') };
      await ledger.capture({ ...args, idempotencyKey: 'campaign:x:batch:1' });
      const again = await ledger.capture({ ...args, idempotencyKey: 'campaign:x:batch:1' });
      expect(again.replayed).toBe(true);
      expect((await ledger.getBalances(user.id)).RCS).toEqual({ available: 0, reserved: 6 });
    });

    it('parallel reserves and captures never go below zero', async () => {
      const user = await newUser();
      await ledger.credit({ userId: user.id, type: 'WHATSAPP', amount: 100, kind: 'ADMIN_ADJUSTMENT' });
      const ref = campaign('busy');
      const reserves = await Promise.allSettled(
        Array.from({ length: 30 }, () =>
          ledger.reserve({ userId: user.id, type: 'WHATSAPP', amount: 7, reference: ref }),
        ),
      );
      const reserved = reserves.filter((o) => o.status === 'fulfilled').length * 7;
      expect(reserved).toBe(98);
      const captures = await Promise.allSettled(
        Array.from({ length: 30 }, () =>
          ledger.capture({ userId: user.id, type: 'WHATSAPP', amount: 5, reference: ref }),
        ),
      );
      const captured = captures.filter((o) => o.status === 'fulfilled').length * 5;
      expect(captured).toBe(95);
      expect((await ledger.getBalances(user.id)).WHATSAPP).toEqual({ available: 2, reserved: 3 });
      await expectReconciled(user.id);
    });
  });

  describe('welcome bonus', () => {
    it('grants 15 SMSSHORT, 15 SMSFLASH and 15 URA once', async () => {
      const user = await newUser();
      const first = await ledger.grantWelcomeBonus(user.id);
      expect(first.map((r) => [r.entry.type, r.entry.kind, r.entry.amount])).toEqual([
        ['SMSSHORT', 'WELCOME_BONUS', 15],
        ['SMSFLASH', 'WELCOME_BONUS', 15],
        ['URA', 'WELCOME_BONUS', 15],
      ]);
      const again = await ledger.grantWelcomeBonus(user.id);
      expect(again.every((r) => r.replayed)).toBe(true);
      const b = await ledger.getBalances(user.id);
      expect([b.SMSSHORT.available, b.SMSFLASH.available, b.URA.available, b.WHATSAPP.available]).toEqual([
        15, 15, 15, 0,
      ]);
      await expectReconciled(user.id);
    });

    it('runs inside the sign-up transaction: rolled back with it, committed with it', async () => {
      const email = `bonus-${crypto.randomUUID()}@ecoa.test`;
      const values = { email, name: 'Bônus', fullName: 'Bônus', cnpj: '11222333000181', mobilePhone: '11912345678' };
      await expect(
        handle.db.transaction(async (tx) => {
          const [u] = await tx.insert(users).values(values).returning();
          await ledger.grantWelcomeBonus(u!.id, { tx });
          throw new Error('sign-up failed after the bonus');
        }),
      ).rejects.toThrow('sign-up failed');
      const none = await handle.executeSql('select count(*)::int as n from users where email = $1', [email]);
      expect((none.rows[0] as { n: number }).n).toBe(0);

      const id = await handle.db.transaction(async (tx) => {
        const [u] = await tx.insert(users).values(values).returning();
        await ledger.grantWelcomeBonus(u!.id, { tx });
        await ledger.grantWelcomeBonus(u!.id, { tx }); // a retry inside the same transaction is harmless
        return u!.id;
      });
      expect((await ledger.getBalances(id)).URA.available).toBe(15);
      await expectReconciled(id);
    });
  });

  describe('payments and adjustments', () => {
    it('a manual payment is SUCCEEDED and credited at once, once per key', async () => {
      const user = await newUser();
      const admin = await newUser({});
      const input = {
        userId: user.id,
        amountCentavos: 270_50,
        method: 'PIX' as const,
        actorUserId: admin.id,
        reason: 'PIX recebido',
        idempotencyKey: 'pix-1',
      };
      const r = await ledger.recordManualPayment(input);
      expect(r.payment).toMatchObject({
        status: 'SUCCEEDED',
        provider: 'MANUAL',
        method: 'PIX',
        amountCentavos: 270_50,
      });
      expect(r.entry).toMatchObject({ kind: 'PURCHASE', amount: 270_50, referenceId: r.payment.id });
      const again = await ledger.recordManualPayment(input);
      expect(again.replayed).toBe(true);
      expect(again.payment.id).toBe(r.payment.id);
      expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(270_50);
      const payments = await ledger.listPayments(user.id, { page: 1, pageSize: 10 });
      expect(payments.total).toBe(1);
      await expectReconciled(user.id);
    });

    it('a pending card payment is credited exactly once, even by concurrent completions', async () => {
      const user = await newUser();
      const p = await ledger.createPendingPayment({
        userId: user.id,
        amountCentavos: 300_00,
        method: 'CARD',
        provider: 'STRIPE',
      });
      expect(p.status).toBe('PENDING');
      const results = await Promise.all(Array.from({ length: 10 }, () => ledger.completePayment(p.id)));
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(await ledger.getMoneyBalanceCentavos(user.id)).toBe(300_00);
      // a late "expired" event does not undo a success
      expect((await ledger.closePendingPayment(p.id, 'CANCELED')).status).toBe('SUCCEEDED');
      const q = await ledger.createPendingPayment({
        userId: user.id,
        amountCentavos: 1,
        method: 'CARD',
        provider: 'STRIPE',
      });
      expect((await ledger.closePendingPayment(q.id, 'FAILED')).status).toBe('FAILED');
      await expectReconciled(user.id);
    });

    it('adjusts up and down, never below zero', async () => {
      const user = await newUser();
      const admin = await newUser();
      const base = { userId: user.id, actorUserId: admin.id, reason: 'ajuste' };
      await ledger.adjust({ ...base, type: 'SMSSHORT', amount: 20 });
      const down = await ledger.adjust({ ...base, type: 'SMSSHORT', amount: -5 });
      expect(down.entry).toMatchObject({
        kind: 'ADMIN_ADJUSTMENT',
        amount: -5,
        actorUserId: admin.id,
        reason: 'ajuste',
      });
      const err = await expectAppError(
        ledger.adjust({ ...base, type: 'SMSSHORT', amount: -16 }),
        'ADJUSTMENT_BELOW_ZERO',
        'O ajuste deixaria o saldo abaixo de zero.',
      );
      expect(err.details).toMatchObject({ available: 15 });
      await ledger.adjust({ ...base, type: 'BALANCE', amount: 10_50 });
      await ledger.adjust({ ...base, type: 'BALANCE', amount: -10_50 });
      await expectAppError(ledger.adjust({ ...base, type: 'BALANCE', amount: -1 }), 'ADJUSTMENT_BELOW_ZERO');
      await expectAppError(
        ledger.adjust({ ...base, userId: crypto.randomUUID(), type: 'URA', amount: 1 }),
        'USER_NOT_FOUND',
      );
      await expectReconciled(user.id);
    });

    it('pages the history newest first', async () => {
      const user = await newUser();
      for (let i = 1; i <= 5; i++) {
        await ledger.credit({ userId: user.id, type: 'ENRICHED', amount: i, kind: 'ADMIN_ADJUSTMENT' });
      }
      const page1 = await ledger.listEntries(user.id, { page: 1, pageSize: 2 });
      expect(page1.total).toBe(5);
      expect(page1.items.map((e) => e.amount)).toEqual([5, 4]);
      const page3 = await ledger.listEntries(user.id, { page: 3, pageSize: 2 });
      expect(page3.items.map((e) => e.amount)).toEqual([1]);
      const filtered = await ledger.listEntries(user.id, { page: 1, pageSize: 10, type: 'BALANCE' });
      expect(filtered.total).toBe(0);
    });
  });
});
