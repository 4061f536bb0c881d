import { CREDIT_TYPES } from '@ecoa/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type UserRow, users } from '../users/users.schema.ts';

let server: RunningServer;
let admin: { token: string; user: { id: string } };

beforeAll(async () => {
  server = await createTestServer({ work: false });
  admin = await signUpAndSignIn(server);
  await makeAdmin(server, admin.user.id);
});
afterAll(async () => {
  await server?.close();
});

type Json = Record<string, unknown>;

function call(method: 'GET' | 'POST', url: string, token?: string, payload?: unknown, headers: Json = {}) {
  return injectAs(server, token, {
    method,
    url,
    ...(payload !== undefined ? { payload: payload as Json } : {}),
    headers: headers as Record<string, string>,
  });
}

async function setPrices(userId: string, prices: Partial<UserRow>) {
  await server.db.db.update(users).set(prices).where(eq(users.id, userId));
}

/** Credits money to a user the way an administrator does. */
async function pay(userId: string, amount: number) {
  const res = await call('POST', `/api/v1/admin/users/${userId}/payments`, admin.token, {
    amount,
    method: 'PIX',
    reason: 'PIX conferido no extrato',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Json;
}

describe(`ledger routes (${dbKind})`, () => {
  it('refuses anonymous calls (401) and non-administrators on admin routes (403)', async () => {
    const someone = await signUpAndSignIn(server);
    const id = someone.user.id;
    for (const [method, url] of [
      ['GET', '/api/v1/dashboard/balance'],
      ['POST', '/api/v1/credits/transfer'],
      ['GET', '/api/v1/ledger'],
      ['GET', '/api/v1/payments'],
      ['GET', `/api/v1/admin/users/${id}/ledger`],
      ['GET', `/api/v1/admin/users/${id}/payments`],
      ['GET', `/api/v1/admin/users/${id}/balance`],
      ['POST', `/api/v1/admin/users/${id}/payments`],
      ['POST', `/api/v1/admin/users/${id}/adjustments`],
    ] as const) {
      const res = await call(method, url, undefined, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
    for (const [method, url, body] of [
      ['GET', `/api/v1/admin/users/${id}/ledger`, undefined],
      ['GET', `/api/v1/admin/users/${id}/payments`, undefined],
      ['GET', `/api/v1/admin/users/${id}/balance`, undefined],
      ['POST', `/api/v1/admin/users/${id}/payments`, { amount: 1000, method: 'MANUAL', reason: 'x' }],
      ['POST', `/api/v1/admin/users/${id}/adjustments`, { type: 'BALANCE', amount: 1000, reason: 'x' }],
    ] as const) {
      const res = await call(method, url, someone.token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    // nothing was credited by the refused calls
    const balance = await call('GET', '/api/v1/dashboard/balance', someone.token);
    expect(balance.json().money).toBe(0);
  });

  it('sign-up grants the welcome bonus; the dashboard shows every credit type', async () => {
    const { token } = await signUpAndSignIn(server);
    const res = await call('GET', '/api/v1/dashboard/balance', token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.money).toBe(0);
    expect(Object.keys(body.credits).sort()).toEqual([...CREDIT_TYPES].sort());
    expect(body.credits.SMSSHORT).toEqual({ available: 15, reserved: 0 });
    expect(body.credits.SMSFLASH).toEqual({ available: 15, reserved: 0 });
    expect(body.credits.URA).toEqual({ available: 15, reserved: 0 });
    expect(body.credits.WHATSAPP).toEqual({ available: 0, reserved: 0 });
    expect(body.credits.BALANCE).toEqual({ available: 0, reserved: 0 });
    const ledger = (await call('GET', '/api/v1/ledger', token)).json();
    expect(ledger.total).toBe(3);
    expect(ledger.items.every((e: Json) => e.kind === 'WELCOME_BONUS' && e.amount === 15)).toBe(true);
  });

  it('an admin payment (reais) is credited at once: dashboard, /api/me and the payments list', async () => {
    const { token, user } = await signUpAndSignIn(server);
    const created = await pay(user.id, 270.5);
    expect(created.money).toBe(270.5);
    expect(created.payment).toMatchObject({ amount: 270.5, method: 'PIX', provider: 'MANUAL', status: 'SUCCEEDED' });
    expect((await call('GET', '/api/v1/dashboard/balance', token)).json()).toMatchObject({
      money: 270.5,
      credits: { BALANCE: { available: 270.5, reserved: 0 } },
    });
    expect((await call('GET', '/api/me', token)).json().balance).toEqual({ money: 270.5 });
    const payments = (await call('GET', '/api/v1/payments', token)).json();
    expect(payments).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(payments.items[0]).toMatchObject({ amount: 270.5, status: 'SUCCEEDED', createdBy: admin.user.id });
    const adminView = (await call('GET', `/api/v1/admin/users/${user.id}/payments`, admin.token)).json();
    expect(adminView.items[0].id).toBe(payments.items[0].id);
    const adminLedger = (await call('GET', `/api/v1/admin/users/${user.id}/ledger?type=BALANCE`, admin.token)).json();
    expect(adminLedger.items).toEqual([
      expect.objectContaining({ kind: 'PURCHASE', amount: 270.5, balanceAfter: 270.5, actorUserId: admin.user.id }),
    ]);
  });

  it('admin payments: the spec form messages, methods, unknown users, idempotency', async () => {
    const { user } = await signUpAndSignIn(server);
    const url = `/api/v1/admin/users/${user.id}/payments`;
    const cases: [unknown, string][] = [
      [{ method: 'PIX', reason: 'r' }, 'Valor pago é obrigatório'],
      [{ amount: 0, method: 'PIX', reason: 'r' }, 'Valor pago não pode ser menor ou igual a 0'],
      [{ amount: -5, method: 'PIX', reason: 'r' }, 'Valor pago não pode ser menor ou igual a 0'],
      [{ amount: 10.005, method: 'PIX', reason: 'r' }, 'Valor pago deve ter no máximo duas casas decimais'],
      [{ amount: 10, method: 'CARD', reason: 'r' }, 'Forma de pagamento inválida'],
      [{ amount: 10, method: 'PIX', reason: ' ' }, 'Motivo é obrigatório'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', url, admin.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const unknown = await call('POST', `/api/v1/admin/users/${crypto.randomUUID()}/payments`, admin.token, {
      amount: 10,
      method: 'MANUAL',
      reason: 'r',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('USER_NOT_FOUND');

    const body = { amount: 500, method: 'MANUAL', reason: 'contrato 12' };
    const first = await call('POST', url, admin.token, body, { 'idempotency-key': 'pay-77' });
    const again = await call('POST', url, admin.token, body, { 'idempotency-key': 'pay-77' });
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect(again.json().payment.id).toBe(first.json().payment.id);
    expect((await call('GET', `/api/v1/admin/users/${user.id}/balance`, admin.token)).json().money).toBe(500);
  });

  it('transfer: price not configured, Quantidade inválida, success, idempotency', async () => {
    const { token, user } = await signUpAndSignIn(server);
    await pay(user.id, 8.5);
    // Prices are 0 at sign-up: "not configured".
    const notConfigured = await call('POST', '/api/v1/credits/transfer', token, { amount: 100, type: 'SMSSHORT' });
    expect(notConfigured.statusCode).toBe(400);
    expect(notConfigured.json().code).toBe('PRICE_NOT_CONFIGURED');

    await setPrices(user.id, { priceSmsShort: 850 }); // R$ 0,085
    const tooMany = await call('POST', '/api/v1/credits/transfer', token, { amount: 101, type: 'SMSSHORT' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: 'Quantidade inválida', code: 'INVALID_QUANTITY' });

    // The same purchase twice under one key: the second is the first's answer, not a second purchase.
    const buy = () =>
      call(
        'POST',
        '/api/v1/credits/transfer',
        token,
        { amount: 100, type: 'SMSSHORT' },
        { 'idempotency-key': 'buy-sms-1' },
      );
    const ok = await buy();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      type: 'SMSSHORT',
      amount: 100,
      unitPrice: 0.085,
      cost: 8.5,
      money: 0,
      credits: { available: 115, reserved: 0 },
    });
    const retry = await buy();
    expect(retry.statusCode).toBe(200);
    expect(retry.json().transferId).toBe(ok.json().transferId);
    const balance = (await call('GET', '/api/v1/dashboard/balance', token)).json();
    expect(balance.money).toBe(0);
    expect(balance.credits.SMSSHORT.available).toBe(115);
  });

  it('transfer: a fraction of a centavo rounds up and decides Quantidade inválida', async () => {
    const { token, user } = await signUpAndSignIn(server);
    await setPrices(user.id, { priceSmsFlash: 850 });
    await pay(user.id, 0.08);
    const short = await call('POST', '/api/v1/credits/transfer', token, { amount: 1, type: 'SMSFLASH' });
    expect(short.json().message).toBe('Quantidade inválida');
    await pay(user.id, 0.01);
    const ok = await call('POST', '/api/v1/credits/transfer', token, { amount: 1, type: 'SMSFLASH' });
    expect(ok.json()).toMatchObject({ cost: 0.09, money: 0 });
  });

  it('transfer: the body is validated (integer amount > 0, a credit type other than BALANCE)', async () => {
    const { token, user } = await signUpAndSignIn(server);
    await setPrices(user.id, { priceSmsShort: 850 });
    for (const body of [
      { amount: 0, type: 'SMSSHORT' },
      { amount: -1, type: 'SMSSHORT' },
      { amount: 1.5, type: 'SMSSHORT' },
      { amount: '10', type: 'SMSSHORT' },
      { type: 'SMSSHORT' },
    ]) {
      const res = await call('POST', '/api/v1/credits/transfer', token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe('Quantidade inválida');
    }
    for (const type of ['BALANCE', 'MONEY', undefined]) {
      const res = await call('POST', '/api/v1/credits/transfer', token, { amount: 1, type });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Tipo de crédito inválido');
    }
  });

  it('transfer: the WhatsApp minimum', async () => {
    const { token, user } = await signUpAndSignIn(server);
    await setPrices(user.id, { priceWhatsapp: 1000 }); // R$ 0,10
    await pay(user.id, 2998.99);
    const refused = await call('POST', '/api/v1/credits/transfer', token, { amount: 1, type: 'WHATSAPP' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: 'O valor mínimo para créditos WhatsApp é de 3000.',
      code: 'WHATSAPP_MINIMUM',
    });
    const ok = await call('POST', '/api/v1/credits/transfer', token, { amount: 2, type: 'WHATSAPP' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ cost: 0.2, money: 2998.79, credits: { available: 2 } });
  });

  it('adjustments: reais for BALANCE, units for credits, never below zero', async () => {
    const { token, user } = await signUpAndSignIn(server);
    const url = `/api/v1/admin/users/${user.id}/adjustments`;
    const up = await call('POST', url, admin.token, { type: 'BALANCE', amount: 10.25, reason: 'cortesia' });
    expect(up.statusCode, up.body).toBe(201);
    expect(up.json()).toMatchObject({
      entry: { kind: 'ADMIN_ADJUSTMENT', amount: 10.25, balanceAfter: 10.25, reason: 'cortesia' },
      balance: { available: 10.25, reserved: 0 },
    });
    const below = await call('POST', url, admin.token, { type: 'BALANCE', amount: -10.26, reason: 'estorno' });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toMatchObject({
      code: 'ADJUSTMENT_BELOW_ZERO',
      message: 'O ajuste deixaria o saldo abaixo de zero.',
      details: { available: 1025 },
    });
    const down = await call('POST', url, admin.token, { type: 'SMSSHORT', amount: -15, reason: 'bônus indevido' });
    expect(down.json().balance).toEqual({ available: 0, reserved: 0 });
    for (const [body, message] of [
      [{ amount: 1, reason: 'r' }, 'Tipo de crédito é obrigatório'],
      [{ type: 'URA', amount: 1.5, reason: 'r' }, 'Ajuste de créditos deve ser um número inteiro'],
      [{ type: 'BALANCE', amount: 1.555, reason: 'r' }, 'Ajuste de saldo em reais com no máximo duas casas decimais'],
      [{ type: 'URA', amount: 0, reason: 'r' }, 'O valor do ajuste não pode ser 0'],
      [{ type: 'URA', amount: 5 }, 'Motivo é obrigatório'],
    ] as const) {
      const res = await call('POST', url, admin.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const dashboard = (await call('GET', '/api/v1/dashboard/balance', token)).json();
    expect(dashboard.money).toBe(10.25);
    expect(dashboard.credits.SMSSHORT.available).toBe(0);
  });

  it('pages the own ledger and never shows another user’s', async () => {
    const a = await signUpAndSignIn(server);
    const b = await signUpAndSignIn(server);
    await pay(b.user.id, 300);
    const page = (await call('GET', '/api/v1/ledger?page=2&pageSize=2', a.token)).json();
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.items).toHaveLength(1);
    const own = (await call('GET', '/api/v1/ledger?type=BALANCE', a.token)).json();
    expect(own.total).toBe(0);
    const bad = await call('GET', '/api/v1/ledger?pageSize=1000', a.token);
    expect(bad.statusCode).toBe(400);
  });
});
