import { describe, expect, it } from 'vitest';
import {
  bearer,
  makeAdmin,
  readLoginCode,
  requestCode,
  signIn,
  signUpAndSignIn,
  signupPayload,
  uniqueEmail,
  uniqueIp,
} from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { createTestServer, dbKind, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';

describe(`company sign-up and /api/me (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(createTestServer, (opened) => (server = opened));

  const signUp = (payload: unknown) =>
    server.app.inject({ method: 'POST', url: '/api/user', payload: payload as object, remoteAddress: uniqueIp() });
  async function row(id: string) {
    const { rows } = await server.db.executeSql('select * from users where id = $1', [id]);
    return rows[0] as Record<string, unknown>;
  }

  describe('POST /api/user', () => {
    it('creates an active, new company account and answers 201 with the user', async () => {
      const payload = {
        ...signupPayload({ name: 'Acme Ltda', fullName: 'Ana Souza' }),
        email: `Ana.Souza-${Date.now()}@Acme.test`,
        cnpj: '11.222.333/0001-81',
        mobilePhone: '(11) 98765-4321',
        fantasyName: 'Acme',
        utm_source: 'google',
        utm_medium: 'cpc',
        utm_campaign: 'lancamento',
        utm_term: 'sms em massa',
        utm_content: 'banner-1',
      };
      const res = await signUp(payload);
      expect(res.statusCode, res.body).toBe(201);
      const user = res.json();
      expect(user).toEqual({
        id: expect.any(String),
        name: 'Acme Ltda',
        email: payload.email.toLowerCase(),
        accessLevel: 'USER',
        isNewUser: true,
        userProfileImageLink: null,
        balance: { money: 0 },
        permissions: { enriched: [] },
        priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, rcs: 0, uraIntegration: 0, enriched: 0 },
      });
      const stored = await row(user.id);
      expect(stored).toMatchObject({
        email: payload.email.toLowerCase(),
        name: 'Acme Ltda',
        fantasy_name: 'Acme',
        full_name: 'Ana Souza',
        cnpj: '11222333000181',
        mobile_phone: '11987654321',
        access_level: 'USER',
        active: true,
        is_new_user: true,
        language: 'pt',
        price_sms_short: 0,
        price_enriched: 0,
        signup_utm: {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'lancamento',
          utm_term: 'sms em massa',
          utm_content: 'banner-1',
        },
      });
      expect(stored.terms_accepted_at).toBeTruthy();
    });

    it('stores no utm when none is sent, and the language when one is', async () => {
      const res = await signUp(signupPayload({ language: 'cn' }));
      const stored = await row(res.json().id);
      expect(stored.signup_utm).toBeNull();
      expect(stored.language).toBe('cn');
    });

    it('refuses a second account for the same e-mail, whatever its case: 409', async () => {
      const payload = signupPayload();
      expect((await signUp(payload)).statusCode).toBe(201);
      for (const email of [payload.email, payload.email.toUpperCase(), ` ${payload.email} `]) {
        const res = await signUp({ ...signupPayload(), email });
        expect(res.statusCode, email).toBe(409);
        expect(res.json()).toEqual({
          code: 'EMAIL_ALREADY_REGISTERED',
          message: 'Este e-mail já está cadastrado. Entre com ele ou use outro e-mail.',
        });
      }
    });

    const cases: [string, Record<string, unknown>, string][] = [
      ['email missing', { email: undefined }, '* E-mail é obrigatório'],
      ['email empty', { email: '' }, '* E-mail é obrigatório'],
      ['email invalid', { email: 'ana@' }, 'E-mail inválido'],
      ['name missing', { name: undefined }, '* Empresa é obrigatório'],
      ['name blank', { name: '   ' }, '* Empresa é obrigatório'],
      ['fullName missing', { fullName: undefined }, '* Nome completo é obrigatório'],
      ['fullName empty', { fullName: '' }, '* Nome completo é obrigatório'],
      ['terms false', { terms: false }, '* Você precisa aceitar os termos de uso'],
      ['terms missing', { terms: undefined }, '* Você precisa aceitar os termos de uso'],
      ['cnpj missing', { cnpj: undefined }, '* CNPJ é obrigatório'],
      ['cnpj empty', { cnpj: '' }, '* CNPJ é obrigatório'],
      ['cnpj short', { cnpj: '11.222.333/0001' }, '* CNPJ deve conter 14 dígitos'],
      ['cnpj long', { cnpj: '112223330001811' }, '* CNPJ deve conter 14 dígitos'],
      ['cnpj check digits', { cnpj: '11.222.333/0001-80' }, '* CNPJ inválido'],
      ['cnpj first check digit', { cnpj: '11222333000191' }, '* CNPJ inválido'],
      ['cnpj repeated digits', { cnpj: '11111111111111' }, '* CNPJ inválido'],
      ['mobilePhone missing', { mobilePhone: undefined }, '* Número do Celular é obrigatório'],
      ['mobilePhone short', { mobilePhone: '(11) 9876-5432' }, '* Número do Celular é obrigatório'],
      ['mobilePhone long', { mobilePhone: '119876543210' }, '* Número do Celular é obrigatório'],
    ];
    it.each(cases)('validates the form: %s', async (_label, change, message) => {
      const res = await signUp({ ...signupPayload(), ...change });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.message).toBe(message);
      expect(body.issues[0].message).toBe(message);
    });

    it('refuses a self-service price table: prices are set by the Ecoa team', async () => {
      const payload = signupPayload();
      const res = await signUp({ ...payload, priceTable: { ...payload.priceTable, smsShort: 0.0001 } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('PRICE_TABLE_NOT_ALLOWED');
      // Without a priceTable at all, the account gets the unconfigured (0) prices.
      const { priceTable: _omit, ...bare } = signupPayload();
      expect((await signUp(bare)).statusCode).toBe(201);
    });
  });

  describe('sign-up abuse limit', () => {
    it('takes 10 sign-ups per IP per hour, then answers 429 and creates nothing; other IPs go on', async () => {
      const ip = uniqueIp();
      const from = (payload: object, remoteAddress: string) =>
        server.app.inject({ method: 'POST', url: '/api/user', payload, remoteAddress });
      for (let i = 0; i < 10; i++) {
        const res = await from(signupPayload(), ip);
        expect(res.statusCode, res.body).toBe(201);
      }
      const refused = signupPayload();
      const res = await from(refused, ip);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('cadastros') });
      expect(res.json().details.retryAfterSeconds).toBeGreaterThan(0);
      const { rows } = await server.db.executeSql('select id from users where email = $1', [refused.email]);
      expect(rows).toHaveLength(0);
      expect((await from(refused, uniqueIp())).statusCode).toBe(201);
    });
  });

  describe('GET /api/me', () => {
    it("answers exactly the spec's fields, money and prices in reais", async () => {
      const { token, user } = await signUpAndSignIn(server);
      await server.db.executeSql(
        `update users set price_sms_short = 850, price_sms_flash = 1000, price_whatsapp = 3500, price_ura = 1,
           price_rcs = 12345, price_ura_integration = 10000, price_enriched = 2500, permissions_enriched = '{all}'
         where id = $1`,
        [user.id],
      );
      const res = await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(
        [
          'accessLevel',
          'balance',
          'email',
          'id',
          'isNewUser',
          'name',
          'permissions',
          'priceTable',
          'userProfileImageLink',
        ].sort(),
      );
      expect(body).toEqual({
        id: user.id,
        name: 'Padaria Pão Quente',
        email: user.email,
        accessLevel: 'USER',
        isNewUser: true,
        userProfileImageLink: null,
        balance: { money: 0 },
        permissions: { enriched: ['all'] },
        priceTable: {
          smsShort: 0.085,
          smsFlash: 0.1,
          whatsapp: 0.35,
          ura: 0.0001,
          rcs: 1.2345,
          uraIntegration: 1,
          enriched: 0.25,
        },
      });
    });

    it('answers 401 without a session', async () => {
      const res = await server.app.inject({ method: 'GET', url: '/api/me' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    });

    it('shows an administrator as one at once (makeAdmin)', async () => {
      const { token, user } = await signUpAndSignIn(server);
      await makeAdmin(server, user.id);
      const res = await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
      expect(res.json().accessLevel).toBe('ADMINISTRATOR');
    });

    it('shows the money balance the ledger holds, in reais, as payments come in', async () => {
      const { token, user } = await signUpAndSignIn(server);
      const admin = await signUpAndSignIn(server);
      await makeAdmin(server, admin.user.id);
      const me = async () =>
        (await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).json().balance;
      expect(await me()).toEqual({ money: 0 });
      for (const amount of [270.5, 0.05]) {
        const paid = await server.app.inject({
          method: 'POST',
          url: `/api/v1/admin/users/${user.id}/payments`,
          headers: bearer(admin.token),
          payload: { amount, method: 'PIX', reason: 'pagamento de teste' },
        });
        expect(paid.statusCode, paid.body).toBe(201);
      }
      expect(await me()).toEqual({ money: 270.55 });
      // The other way the account is read (profile answers): the service as the server wires it.
      expect((await server.modules.users.getPublicUser(user.id)).balance).toEqual({ money: 270.55 });
    });
  });

  describe('ADMIN_EMAIL', () => {
    it('creates an active administrator on start, who can sign in', async () => {
      const email = uniqueEmail('admin');
      const admin = await createTestServer({ config: testConfig({ ADMIN_EMAIL: email }) });
      try {
        const { user } = await signIn(admin, email);
        expect(user).toMatchObject({ email, accessLevel: 'ADMINISTRATOR' });
        // A restart keeps the one account.
        await admin.modules.users.ensureAdmin(email.toUpperCase());
        const { rows } = await admin.db.executeSql('select count(*)::int as n from users where lower(email) = $1', [
          email,
        ]);
        expect((rows[0] as { n: number }).n).toBe(1);
      } finally {
        await admin.close();
      }
    });

    it('promotes and reactivates an existing account', async () => {
      const { user, email } = await signUpAndSignIn(server);
      await server.modules.users.deactivate(user.id);
      await server.modules.users.ensureAdmin(email);
      const stored = await row(user.id);
      expect(stored).toMatchObject({ access_level: 'ADMINISTRATOR', active: true, cnpj: expect.any(String) });
      const ip = uniqueIp();
      await requestCode(server, email, ip);
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, code: readLoginCode(server, email) },
        remoteAddress: ip,
      });
      expect(login.json().user.accessLevel).toBe('ADMINISTRATOR');
    });
  });
});
