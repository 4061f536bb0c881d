import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { createLedgerApi } from './ledger.api.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { createLedgerService, type LedgerService } from './ledger.service.ts';
import { insertTestUser, openLedgerTestDb } from './ledger.test-support.ts';

/**
 * ledger.api.ts is where the ledger's centavos, units and dates become the API's reais, units and
 * ISO strings: these call it over a real ledger and compare every field of its answers.
 */

let handle: DbHandle;
let ledger: LedgerService;
let api: ReturnType<typeof createLedgerApi>;

beforeAll(async () => {
  ({ handle, ledger } = await openLedgerTestDb());
});
// The API and the ledger service under it are built in each test, as the routes' module builds
// them, so that their construction is part of what each test checks (Stryker switches a mutant
// on per test: code run once in beforeAll would escape it).
beforeEach(() => {
  api = createLedgerApi(
    createLedgerService({ repo: createLedgerRepository(handle.db), clock: { now: () => new Date() } }),
  );
});
afterAll(() => handle?.close());

const zero = { available: 0, reserved: 0 };
const campaign = (id: string) => ({ type: 'campaign', id });

describe(`the ledger as the API shows it (${dbKind})`, () => {
  it('balance: money in reais, each credit type in units (BALANCE in reais), untouched types zero', async () => {
    const user = await insertTestUser(handle.db);
    await ledger.credit({ userId: user.id, type: 'BALANCE', amount: 12_345, kind: 'ADMIN_ADJUSTMENT' });
    await ledger.reserve({ userId: user.id, type: 'BALANCE', amount: 2_005, reference: campaign('m') });
    await ledger.credit({ userId: user.id, type: 'SMSSHORT', amount: 250, kind: 'ADMIN_ADJUSTMENT' });
    await ledger.reserve({ userId: user.id, type: 'SMSSHORT', amount: 40, reference: campaign('c') });

    expect(await api.balance(user.id)).toEqual({
      money: 103.4,
      credits: {
        BALANCE: { available: 103.4, reserved: 20.05 },
        SMSSHORT: { available: 210, reserved: 40 },
        SMSFLASH: zero,
        WHATSAPP: zero,
        URA: zero,
        URAINTEGRATION: zero,
        RCS: zero,
        ENRICHED: zero,
      },
    });
  });

  it('entriesPage: every field of each entry, amounts in reais for BALANCE and units otherwise, newest first', async () => {
    const user = await insertTestUser(handle.db);
    const money = await ledger.credit({ userId: user.id, type: 'BALANCE', amount: 5_050, kind: 'ADMIN_ADJUSTMENT' });
    const held = await ledger.reserve({ userId: user.id, type: 'BALANCE', amount: 1_025, reference: campaign('x') });
    await ledger.credit({ userId: user.id, type: 'URA', amount: 300, kind: 'ADMIN_ADJUSTMENT' });
    const ura = await ledger.reserve({ userId: user.id, type: 'URA', amount: 120, reference: campaign('y') });

    const page = await api.entriesPage(user.id, { page: 2, pageSize: 2 });
    expect(page).toEqual({
      total: 4,
      page: 2,
      pageSize: 2,
      items: [
        {
          id: held.entry.id,
          type: 'BALANCE',
          kind: 'RESERVE',
          amount: -10.25,
          balanceAfter: 40.25,
          reservedDelta: 10.25,
          reservedAfter: 10.25,
          referenceType: 'campaign',
          referenceId: 'x',
          actorUserId: null,
          reason: null,
          createdAt: held.entry.createdAt.toISOString(),
        },
        {
          id: money.entry.id,
          type: 'BALANCE',
          kind: 'ADMIN_ADJUSTMENT',
          amount: 50.5,
          balanceAfter: 50.5,
          reservedDelta: 0,
          reservedAfter: 0,
          referenceType: null,
          referenceId: null,
          actorUserId: null,
          reason: null,
          createdAt: money.entry.createdAt.toISOString(),
        },
      ],
    });
    const [newest] = (await api.entriesPage(user.id, { page: 1, pageSize: 1, type: 'URA' })).items;
    expect(newest).toEqual({
      id: ura.entry.id,
      type: 'URA',
      kind: 'RESERVE',
      amount: -120,
      balanceAfter: 180,
      reservedDelta: 120,
      reservedAfter: 120,
      referenceType: 'campaign',
      referenceId: 'y',
      actorUserId: null,
      reason: null,
      createdAt: ura.entry.createdAt.toISOString(),
    });
  });

  it('paymentsPage and paymentStatus: amounts in reais, completedAt only once completed', async () => {
    const user = await insertTestUser(handle.db);
    const pending = await ledger.createPendingPayment({
      userId: user.id,
      amountCentavos: 7_501,
      method: 'CARD',
      provider: 'STRIPE',
      reason: 'Cartão',
    });
    const paid = await ledger.createPendingPayment({
      userId: user.id,
      amountCentavos: 20_000,
      method: 'CARD',
      provider: 'STRIPE',
    });
    const done = await ledger.completePayment(paid.id);
    const refunded = await ledger.refundPayment(paid.id, 2_550);

    const page = await api.paymentsPage(user.id, { page: 1, pageSize: 10 });
    expect(page.total).toBe(2);
    expect(page.page).toBe(1);
    expect(page.pageSize).toBe(10);
    const byId = new Map(page.items.map((p) => [p.id, p]));
    expect(byId.get(pending.id)).toEqual({
      id: pending.id,
      amount: 75.01,
      method: 'CARD',
      provider: 'STRIPE',
      status: 'PENDING',
      reason: 'Cartão',
      createdBy: user.id,
      refunded: 0,
      createdAt: pending.createdAt.toISOString(),
      completedAt: null,
    });
    expect(byId.get(paid.id)).toEqual({
      id: paid.id,
      amount: 200,
      method: 'CARD',
      provider: 'STRIPE',
      status: 'SUCCEEDED',
      reason: null,
      createdBy: user.id,
      refunded: 25.5,
      createdAt: paid.createdAt.toISOString(),
      completedAt: done.payment.completedAt!.toISOString(),
    });
    expect(refunded.payment.refundedCentavos).toBe(2_550);

    expect(await api.paymentStatus(user.id, pending.id)).toEqual({ id: pending.id, status: 'PENDING', amount: 75.01 });
  });

  it('transfer: amount in units, unit price and cost in reais, the money left and the credits', async () => {
    const user = await insertTestUser(handle.db, { priceRcs: 1_250 }); // R$ 0,125 each
    await ledger.credit({ userId: user.id, type: 'BALANCE', amount: 10_000, kind: 'ADMIN_ADJUSTMENT' });
    const result = await api.transfer({ userId: user.id, type: 'RCS', quantity: 33 });
    expect(result).toEqual({
      transferId: expect.any(String),
      type: 'RCS',
      amount: 33,
      unitPrice: 0.125,
      cost: 4.13, // 33 × 12,5 centavos = 412,5 → 413
      money: 95.87,
      credits: { available: 33, reserved: 0 },
    });
    const [out] = (await ledger.listEntries(user.id, { page: 1, pageSize: 1, type: 'BALANCE' })).items;
    expect(out).toMatchObject({ kind: 'TRANSFER_OUT', referenceId: result.transferId });
  });

  it('recordManualPayment: the payment, its entry and the money after it; a retry says replayed', async () => {
    const user = await insertTestUser(handle.db);
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    await ledger.credit({ userId: user.id, type: 'BALANCE', amount: 1_000, kind: 'ADMIN_ADJUSTMENT' });
    const input = {
      userId: user.id,
      amountCentavos: 4_990,
      method: 'PIX' as const,
      actorUserId: admin.id,
      reason: 'PIX conferido',
      idempotencyKey: 'api-pix',
    };
    const first = await api.recordManualPayment(input);
    const payment = (await ledger.findPayment(first.body.payment.id))!;
    const [entry] = (await ledger.listEntries(user.id, { page: 1, pageSize: 1 })).items;
    expect(first).toEqual({
      replayed: false,
      body: {
        payment: {
          id: payment.id,
          amount: 49.9,
          method: 'PIX',
          provider: 'MANUAL',
          status: 'SUCCEEDED',
          reason: 'PIX conferido',
          createdBy: admin.id,
          refunded: 0,
          createdAt: payment.createdAt.toISOString(),
          completedAt: payment.completedAt!.toISOString(),
        },
        entry: {
          id: entry!.id,
          type: 'BALANCE',
          kind: 'PURCHASE',
          amount: 49.9,
          balanceAfter: 59.9,
          reservedDelta: 0,
          reservedAfter: 0,
          referenceType: 'payment',
          referenceId: payment.id,
          actorUserId: admin.id,
          reason: 'PIX conferido',
          createdAt: entry!.createdAt.toISOString(),
        },
        money: 59.9,
      },
    });
    await ledger.debit({ userId: user.id, type: 'BALANCE', amount: 900, kind: 'ENRICHMENT_CHARGE' });
    const again = await api.recordManualPayment(input);
    expect(again).toEqual({ replayed: true, body: { ...first.body, money: 50.9 } });
  });

  it('adjust: the entry and the balance left, in reais for BALANCE and units for credits', async () => {
    const user = await insertTestUser(handle.db);
    const admin = await insertTestUser(handle.db, { accessLevel: 'ADMINISTRATOR' });
    const up = await api.adjust({
      userId: user.id,
      type: 'BALANCE',
      amount: 3_333,
      actorUserId: admin.id,
      reason: 'Bônus',
    });
    expect(up).toEqual({
      replayed: false,
      body: {
        entry: expect.objectContaining({
          type: 'BALANCE',
          kind: 'ADMIN_ADJUSTMENT',
          amount: 33.33,
          balanceAfter: 33.33,
        }),
        balance: { available: 33.33, reserved: 0 },
      },
    });
    const input = {
      userId: user.id,
      type: 'SMSFLASH' as const,
      amount: 77,
      actorUserId: admin.id,
      reason: 'Cortesia',
      idempotencyKey: 'api-adjust',
    };
    const credits = await api.adjust(input);
    expect(credits.body).toEqual({
      entry: expect.objectContaining({
        type: 'SMSFLASH',
        kind: 'ADMIN_ADJUSTMENT',
        amount: 77,
        balanceAfter: 77,
        actorUserId: admin.id,
        reason: 'Cortesia',
      }),
      balance: { available: 77, reserved: 0 },
    });
    expect(credits.replayed).toBe(false);
    expect(await api.adjust(input)).toEqual({ replayed: true, body: credits.body });
  });
});
