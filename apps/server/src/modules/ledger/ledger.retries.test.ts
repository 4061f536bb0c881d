import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { users } from '../users/users.schema.ts';

let server: RunningServer;
let admin: { token: string };

beforeAll(async () => {
  server = await createTestServer({ work: false });
  const signedIn = await signUpAndSignIn(server);
  await makeAdmin(server, signedIn.user.id);
  admin = signedIn;
});
afterAll(async () => {
  await server?.close();
});

/** The same request `times` times at once, as a client retrying after a lost response (plus its twin in flight). */
function repeated(times: number, url: string, token: string, payload: Record<string, unknown>, key: string) {
  return Promise.all(
    Array.from({ length: times }, () =>
      server.app.inject({ method: 'POST', url, payload, headers: { ...bearer(token), 'idempotency-key': key } }),
    ),
  );
}

async function balance(userId: string) {
  const res = await server.app.inject({
    method: 'GET',
    url: `/api/v1/admin/users/${userId}/balance`,
    headers: bearer(admin.token),
  });
  return res.json();
}

async function expectReconciled(userId: string) {
  expect((await server.modules.ledger.reconcile(userId)).mismatches).toEqual([]);
}

/**
 * An administrator's submission sent 3 times at once, then once more, under one key: created
 * once (201), the others answered with its result (200), all naming the same `idOf`.
 */
async function expectAppliedOnce(
  url: string,
  body: Record<string, unknown>,
  idOf: (answer: { payment: { id: string }; entry: { id: string } }) => string,
) {
  const key = crypto.randomUUID();
  const answers = [
    ...(await repeated(3, url, admin.token, body, key)),
    ...(await repeated(1, url, admin.token, body, key)),
  ];
  expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 201]);
  expect(new Set(answers.map((r) => idOf(r.json()))).size).toBe(1);
}

/** The web sends one Idempotency-Key per form submission; a retry of that submission applies once. */
describe(`a retried money request with the same Idempotency-Key applies once (${dbKind})`, () => {
  it('an administrator’s payment', async () => {
    const { user } = await signUpAndSignIn(server);
    const url = `/api/v1/admin/users/${user.id}/payments`;
    const body = { amount: 300, method: 'PIX', reason: 'PIX do dia' };
    await expectAppliedOnce(url, body, (answer) => answer.payment.id);
    expect((await balance(user.id)).money).toBe(300);
    // Another submission (a new key) is another payment.
    await repeated(1, url, admin.token, body, crypto.randomUUID());
    expect((await balance(user.id)).money).toBe(600);
    await expectReconciled(user.id);
  });

  it('an administrator’s adjustment', async () => {
    const { user } = await signUpAndSignIn(server);
    const url = `/api/v1/admin/users/${user.id}/adjustments`;
    const body = { type: 'SMSSHORT', amount: 10, reason: 'cortesia' };
    await expectAppliedOnce(url, body, (answer) => answer.entry.id);
    expect((await balance(user.id)).credits.SMSSHORT.available).toBe(15 + 10); // welcome bonus + 10
    await expectReconciled(user.id);
  });

  it('a user’s transfer from balance', async () => {
    const { user, token } = await signUpAndSignIn(server);
    await server.db.db.update(users).set({ priceUra: 1000 }).where(eq(users.id, user.id)); // R$ 0,10
    await repeated(
      1,
      `/api/v1/admin/users/${user.id}/payments`,
      admin.token,
      { amount: 50, method: 'PIX', reason: 'r' },
      crypto.randomUUID(),
    );
    const key = crypto.randomUUID();
    const body = { amount: 100, type: 'URA' };
    const answers = [
      ...(await repeated(3, '/api/v1/credits/transfer', token, body, key)),
      ...(await repeated(1, '/api/v1/credits/transfer', token, body, key)),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((r) => r.json().transferId)).size).toBe(1);
    const after = await balance(user.id);
    expect(after.money).toBe(40);
    expect(after.credits.URA.available).toBe(15 + 100);
    await expectReconciled(user.id);
  });
});
