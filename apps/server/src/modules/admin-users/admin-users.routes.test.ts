import crypto from 'node:crypto';
import { cnpjCheckDigits } from '@ecoa/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAdminOnly } from '../../../test/access.test-support.ts';
import {
  bearer,
  makeAdmin,
  requestCode,
  signIn,
  signUpAndSignIn,
  validAlphanumericCnpj,
  validCnpj,
} from '../../../test/factories.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { users } from '../users/users.schema.ts';

let server: RunningServer;
let admin: { token: string; user: { id: string }; email: string };

beforeAll(async () => {
  server = await createTestServer({ work: false });
  admin = await signUpAndSignIn(server, { fullName: 'Ana Administradora' });
  await makeAdmin(server, admin.user.id);
});
afterAll(async () => {
  await server?.close();
});

type History = { action: string; actor: Record<string, string>; changes: Record<string, unknown> }[];
type Json = Record<string, unknown> & { id: string; history: History };
const get = (url: string, token = admin.token) => callAs(server, { method: 'GET', url }, token);
const patch = (id: string, payload: unknown, token = admin.token) =>
  callAs(server, { method: 'PATCH', url: `/api/v1/admin/users/${id}`, payload }, token);
const detail = async (id: string) => {
  const res = await get(`/api/v1/admin/users/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Json;
};
const search = async (query: string) => {
  const res = await get(`/api/v1/admin/users?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Json[]; total: number; page: number; pageSize: number };
};
/** A marker only this test's users carry, so searches ignore the rest of the shared database. */
const tag = () => `T${crypto.randomBytes(4).toString('hex')}`;

describe(`admin users API (${dbKind})`, () => {
  it('is for administrators only: 401 without a session, 403 for a regular user', async () => {
    const target = await signUpAndSignIn(server);
    const url = `/api/v1/admin/users/${target.user.id}`;
    await expectAdminOnly(server, [
      { method: 'GET', url: '/api/v1/admin/users?search=x' },
      { method: 'GET', url },
      { method: 'PATCH', url, payload: { priceTable: { smsShort: 0.01 } } },
      // Refused before the input is read: a bad body is still 401/403, never a 400 that probes the API.
      { method: 'PATCH', url, payload: { priceTable: { smsShort: -1 }, nonsense: true } },
    ]);
  });

  it('searches company, full name, e-mail and CNPJ (with or without the mask), paginated, newest first', async () => {
    const t = tag();
    const cnpj = validCnpj();
    const a = await signUpAndSignIn(server, { name: `Padaria ${t}`, fullName: 'João Souza', cnpj });
    const b = await signUpAndSignIn(server, { name: 'Oficina', fullName: `Beatriz ${t}`, mobilePhone: '21912345678' });
    const c = await signUpAndSignIn(server, { name: 'Mercado', email: `${t.toLowerCase()}@ecoa.test` });

    const all = await search(`search=${t.toLowerCase()}`);
    expect(all.total).toBe(3);
    expect(all.items.map((u) => u.id)).toEqual([c.user.id, b.user.id, a.user.id]);
    const row = all.items.find((u) => u.id === b.user.id)!;
    expect(row).toMatchObject({
      name: 'Oficina',
      fullName: `Beatriz ${t}`,
      email: b.email,
      mobilePhone: '21912345678',
      active: true,
      accessLevel: 'USER',
      balance: { money: 0 },
    });
    expect(Date.parse(String(row.createdAt))).toBeGreaterThan(Date.now() - 120_000);

    const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
    for (const q of [cnpj, masked, masked.slice(0, 10)]) {
      const found = await search(`search=${encodeURIComponent(q)}`);
      expect(
        found.items.map((u) => u.id),
        q,
      ).toContain(a.user.id);
    }

    // An alphanumeric CNPJ (July 2026 on) signs up, stored upper-case, and is found typed in any case.
    const alpha = validAlphanumericCnpj();
    const d = await signUpAndSignIn(server, { name: 'Nova', cnpj: alpha.toLowerCase() });
    const { rows } = await server.db.executeSql('select cnpj from users where id = $1', [d.user.id]);
    expect(rows).toEqual([{ cnpj: alpha }]);
    // Masked or bare, in any case, letters only or not (a random CNPJ may start with eight letters).
    const alphaMasked = `${alpha.slice(0, 2)}.${alpha.slice(2, 5)}.${alpha.slice(5, 8)}`.toLowerCase();
    for (const q of [alphaMasked, alpha.slice(0, 8).toLowerCase(), alpha.slice(2, 10)])
      expect(
        (await search(`search=${encodeURIComponent(q)}`)).items.map((u) => u.id),
        q,
      ).toContain(d.user.id);
    const letters = `QWERTYUI0001${cnpjCheckDigits('QWERTYUI0001')}`;
    const e = await signUpAndSignIn(server, { name: 'Letras', cnpj: letters });
    expect((await search('search=qw.ert.yui')).items.map((u) => u.id)).toContain(e.user.id);

    const page2 = await search(`search=${t}&page=2&pageSize=2`);
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.items.map((u) => u.id)).toEqual([a.user.id]);

    // LIKE wildcards are text, not patterns.
    expect((await search(`search=${encodeURIComponent(`${t}%`)}`)).total).toBe(0);
    expect((await search(`search=${encodeURIComponent(`_${t.slice(1)}`)}`)).total).toBe(0);
  });

  it('shows the money balance in reais', async () => {
    const t = tag();
    const u = await signUpAndSignIn(server, { name: `Loja ${t}` });
    const paid = await callAs(
      server,
      {
        method: 'POST',
        url: `/api/v1/admin/users/${u.user.id}/payments`,
        payload: { amount: 270.5, method: 'PIX', reason: 'PIX conferido' },
      },
      admin.token,
    );
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await search(`search=${t}`)).items[0]!.balance).toEqual({ money: 270.5 });
    expect((await detail(u.user.id)).balance).toEqual({ money: 270.5 });
  });

  it('rejects bad queries and ids with a clear error', async () => {
    for (const q of ['page=0', 'pageSize=101', 'page=abc']) {
      const res = await get(`/api/v1/admin/users?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await get('/api/v1/admin/users/not-a-uuid')).statusCode).toBe(400);
    const missing = await get(`/api/v1/admin/users/${crypto.randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'Usuário não encontrado.' });
    expect((await patch(crypto.randomUUID(), { active: false })).statusCode).toBe(404);
  });

  it('stores a price table exactly (4 decimals), shows it everywhere and audits each field', async () => {
    const u = await signUpAndSignIn(server);
    const res = await patch(u.user.id, { priceTable: { smsShort: 0.0875, whatsapp: 0.25, enriched: 1.2345 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().priceTable).toEqual({
      smsShort: 0.0875,
      smsFlash: 0,
      whatsapp: 0.25,
      ura: 0,
      rcs: 0,
      uraIntegration: 0,
      enriched: 1.2345,
    });
    const [row] = await server.db.db.select().from(users).where(eq(users.id, u.user.id));
    expect([row!.priceSmsShort, row!.priceWhatsapp, row!.priceEnriched]).toEqual([875, 2500, 12345]);
    const me = await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(u.token) });
    expect(me.json().priceTable.smsShort).toBe(0.0875);

    const { history } = await detail(u.user.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      action: 'update',
      actor: { id: admin.user.id, name: 'Ana Administradora', email: admin.email },
      changes: {
        'priceTable.smsShort': { from: 0, to: 0.0875 },
        'priceTable.whatsapp': { from: 0, to: 0.25 },
        'priceTable.enriched': { from: 0, to: 1.2345 },
      },
    });
    expect(Object.keys(history[0]!.changes)).toHaveLength(3);

    // The same values again change nothing and record nothing.
    expect((await patch(u.user.id, { priceTable: { smsShort: 0.0875 } })).statusCode).toBe(200);
    expect((await detail(u.user.id)).history).toHaveLength(1);
  });

  it('refuses bad input with a code and changes nothing', async () => {
    const u = await signUpAndSignIn(server);
    const before = await detail(u.user.id);
    const bad: unknown[] = [
      { priceTable: { smsShort: -0.01 } },
      { priceTable: { smsShort: 0.00001 } },
      { priceTable: { smsShort: '0,0875' } },
      { priceTable: { smsShort: 2_000_000 } },
      { priceTable: { sms: 1 } },
      { priceTable: { smsShort: 0.05, rcs: -1 } },
      { accessLevel: 'ROOT' },
      { active: 'no' },
      { permissions: { enriched: 'all' } },
      { permissions: { enriched: [''] } },
      { isNewUser: false },
      { email: 'x@y.z' },
    ];
    for (const payload of bad) {
      const res = await patch(u.user.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect(res.json().message.length).toBeGreaterThan(5);
    }
    expect(await detail(u.user.id)).toEqual(before);
  });

  it('never lets administrators deactivate or demote themselves', async () => {
    const me = await signUpAndSignIn(server);
    await makeAdmin(server, me.user.id);
    const before = await detail(me.user.id);

    const off = await patch(me.user.id, { active: false, priceTable: { smsShort: 0.5 } }, me.token);
    expect(off.statusCode).toBe(409);
    expect(off.json()).toEqual({
      code: 'CANNOT_DEACTIVATE_SELF',
      message: 'Você não pode desativar a sua própria conta.',
    });
    const demote = await patch(me.user.id, { accessLevel: 'USER' }, me.token);
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('CANNOT_DEMOTE_SELF');
    expect(await detail(me.user.id)).toEqual(before);

    // Changing one's own prices (and restating one's own level) is fine.
    const own = await patch(
      me.user.id,
      { active: true, accessLevel: 'ADMINISTRATOR', priceTable: { rcs: 0.3 } },
      me.token,
    );
    expect(own.statusCode, own.body).toBe(200);
    expect((await detail(me.user.id)).history[0]!.changes).toEqual({ 'priceTable.rcs': { from: 0, to: 0.3 } });
  });

  it('deactivation ends every session at once and blocks new codes; reactivation lets the user back in', async () => {
    const u = await signUpAndSignIn(server);
    const second = await signIn(server, u.email, { remainLogin: true });
    const me = (token: string) => server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    expect((await me(second.token)).statusCode).toBe(200);

    const off = await patch(u.user.id, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    for (const token of [u.token, second.token]) expect((await me(token)).statusCode).toBe(401);
    const { rows } = await server.db.executeSql(
      'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null',
      [u.user.id],
    );
    expect((rows[0] as { n: number }).n).toBe(0);

    const code = await requestCode(server, u.email);
    expect(code.statusCode).toBe(403);
    expect(code.json()).toMatchObject({ code: 'USER_DEACTIVATED', message: 'Usuario desativado.' });
    expect((await search(`search=${encodeURIComponent(u.email)}`)).items[0]).toMatchObject({ active: false });

    expect((await patch(u.user.id, { active: true })).statusCode).toBe(200);
    // The old sessions stay ended; a new sign-in works.
    expect((await me(second.token)).statusCode).toBe(401);
    const back = await signIn(server, u.email);
    expect((await me(back.token)).statusCode).toBe(200);

    const { history } = await detail(u.user.id);
    expect(history.map((h) => h.changes.active)).toEqual([
      { from: false, to: true },
      { from: true, to: false },
    ]);
  });

  it('changes the access level and the enrichment permission', async () => {
    const u = await signUpAndSignIn(server);
    const promoted = await patch(u.user.id, { accessLevel: 'ADMINISTRATOR', permissions: { enriched: ['all'] } });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ accessLevel: 'ADMINISTRATOR', permissions: { enriched: ['all'] } });
    // The same session is an administrator's from its next request.
    expect((await get('/api/v1/admin/users?pageSize=1', u.token)).statusCode).toBe(200);
    const me = await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(u.token) });
    expect(me.json()).toMatchObject({ accessLevel: 'ADMINISTRATOR', permissions: { enriched: ['all'] } });

    expect((await patch(u.user.id, { accessLevel: 'USER', permissions: { enriched: [] } })).statusCode).toBe(200);
    expect((await get('/api/v1/admin/users?pageSize=1', u.token)).statusCode).toBe(403);
    const { history } = await detail(u.user.id);
    expect(history[0]!.changes).toEqual({
      accessLevel: { from: 'ADMINISTRATOR', to: 'USER' },
      'permissions.enriched': { from: ['all'], to: [] },
    });
  });

  it('keeps the audit log append-only in the database', async () => {
    const u = await signUpAndSignIn(server);
    expect((await patch(u.user.id, { priceTable: { ura: 0.15 } })).statusCode).toBe(200);
    await expect(
      server.db.executeSql('update audit_log set action = $1 where subject_id = $2', ['x', u.user.id]),
    ).rejects.toThrow(/append-only/);
    await expect(server.db.executeSql('delete from audit_log where subject_id = $1', [u.user.id])).rejects.toThrow(
      /append-only/,
    );
  });
});
