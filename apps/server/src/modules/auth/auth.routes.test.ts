import crypto from 'node:crypto';
import { MESSAGES } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import {
  bearer,
  latestMailTo,
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
import { createManualClock, DAY, HOUR, MINUTE } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { createAuthRepository } from './auth.repository.ts';

describe(`sign-in with an e-mail code (${dbKind})`, () => {
  const clock = createManualClock(new Date('2030-03-01T12:00:00Z'));
  let server: RunningServer;
  openBeforeAll(
    () => createTestServer({ clock }),
    (opened) => (server = opened),
  );

  const post = (url: string, payload: unknown, ip = uniqueIp()) =>
    server.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress: ip });
  const me = (headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url: '/api/me', headers });

  async function newAccount(overrides: Parameters<typeof signupPayload>[0] = {}) {
    const payload = signupPayload(overrides);
    const res = await post('/api/user', payload);
    expect(res.statusCode, res.body).toBe(201);
    return { email: payload.email, user: res.json() as { id: string } };
  }

  /** A new account that asked for a code from its own address: its e-mail, that address and the code. */
  async function accountWithCode() {
    const { email } = await newAccount();
    const ip = uniqueIp();
    await post('/api/auth/request-code', { email }, ip);
    return { email, ip, code: readLoginCode(server, email) };
  }

  async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await server.db.executeSql(text, values)).rows as T[];
  }

  describe('POST /api/auth/request-code', () => {
    it('e-mails a 6-digit code, valid 10 minutes, and stores only its hash', async () => {
      const { email, user } = await newAccount();
      const res = await post('/api/auth/request-code', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, message: 'Código enviado para o seu e-mail.', expiresInSeconds: 600 });

      const eml = latestMailTo(server, email)!;
      expect(eml).toMatch(new RegExp(`^To: ${email}$`, 'm'));
      expect(eml).toContain('Content-Type: text/plain; charset=utf-8');
      expect(eml).toContain('Content-Type: text/html; charset=utf-8');
      const code = readLoginCode(server, email);
      expect(code).toMatch(/^\d{6}$/);
      const subject = subjectOf(eml);
      expect(subject).toBe('Seu código de acesso ao Ecoa');
      expect(subject).not.toContain(code);

      const rows = await sql<{ code_hash: string; expires_at: Date; created_at: Date }>(
        'select code_hash, expires_at, created_at from login_codes where user_id = $1',
        [user.id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0]!.code_hash).not.toContain(code);
      expect(new Date(rows[0]!.expires_at).getTime() - new Date(rows[0]!.created_at).getTime()).toBe(10 * MINUTE);
    });

    it("writes the e-mail in the account's language (pt by default, en, cn)", async () => {
      const expected = { en: 'Your Ecoa sign-in code', cn: '您的 Ecoa 登录验证码' } as const;
      for (const language of ['en', 'cn'] as const) {
        const { email } = await newAccount({ language });
        expect((await post('/api/auth/request-code', { email })).statusCode).toBe(200);
        const eml = latestMailTo(server, email)!;
        expect(subjectOf(eml)).toBe(expected[language]);
        expect(readLoginCode(server, email)).toMatch(/^\d{6}$/);
      }
    });

    it('answers an unknown e-mail with 404 EMAIL_NOT_FOUND', async () => {
      const res = await post('/api/auth/request-code', { email: uniqueEmail('nobody') });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'EMAIL_NOT_FOUND', message: 'E-mail não cadastrado.' });
    });

    it("validates the e-mail with the spec's message", async () => {
      for (const payload of [{}, { email: '' }, { email: 'a' }, { email: 'not-an-email' }, { email: 42 }]) {
        const res = await post('/api/auth/request-code', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'E-mail é obrigatório.' });
      }
    });

    it("names the spec's message by its key, so the web translates it without reading the text", async () => {
      const res = await post('/api/auth/request-code', { email: 'not-an-email' });
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: MESSAGES.loginEmail,
        details: { messageKey: 'loginEmail' },
      });
    });

    it('treats the e-mail case-insensitively and ignores surrounding spaces', async () => {
      const { email } = await newAccount();
      expect((await post('/api/auth/request-code', { email: `  ${email.toUpperCase()} ` })).statusCode).toBe(200);
      const ip = uniqueIp();
      const login = await post(
        '/api/auth/login',
        { email: email.toUpperCase(), code: readLoginCode(server, email), remainLogin: false },
        ip,
      );
      expect(login.statusCode, login.body).toBe(200);
    });
  });

  describe('POST /api/auth/login', () => {
    it('exchanges the code for a random token (stored hashed) and the user', async () => {
      const { email, user } = await newAccount();
      const ip = uniqueIp();
      await post('/api/auth/request-code', { email }, ip);
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login?remainLogin=false',
        payload: { code: readLoginCode(server, email), email, remainLogin: false },
        remoteAddress: ip,
        headers: { 'user-agent': 'vitest' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['accessToken', 'user']);
      expect(body.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
      expect(body.user).toMatchObject({ id: user.id, email, accessLevel: 'USER', isNewUser: true });

      const sessions = await sql<{ token_hash: string; remain_login: boolean; ip: string; user_agent: string }>(
        'select token_hash, remain_login, ip, user_agent from sessions where user_id = $1',
        [user.id],
      );
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.token_hash).toBe(crypto.createHash('sha256').update(body.accessToken).digest('hex'));
      expect(sessions[0]).toMatchObject({ remain_login: false, ip, user_agent: 'vitest' });
    });

    it('accepts the token as "Bearer <token>" and raw', async () => {
      const { token, user } = await signUpAndSignIn(server);
      for (const authorization of [`Bearer ${token}`, `bearer ${token}`, token]) {
        const res = await me({ authorization });
        expect(res.statusCode, authorization).toBe(200);
        expect(res.json().id).toBe(user.id);
      }
    });

    it('answers 401 UNAUTHORIZED without a token or with a bad one', async () => {
      const cases: Record<string, string>[] = [
        {},
        { authorization: '' },
        { authorization: 'Bearer' },
        { authorization: 'Bearer not a token' },
        { authorization: `Bearer ${crypto.randomBytes(32).toString('base64url')}` },
        { authorization: 'Basic dXNlcjpwYXNz' },
      ];
      for (const headers of cases) {
        const res = await me(headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(401);
        expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
        expect(typeof res.json().message).toBe('string');
      }
    });

    it('rejects a code used once already', async () => {
      const { email, ip, code } = await accountWithCode();
      expect((await post('/api/auth/login', { email, code }, ip)).statusCode).toBe(200);
      const again = await post('/api/auth/login', { email, code }, ip);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({
        code: 'CODE_EXPIRED',
        message: 'Código expirado ou já utilizado. Solicite um novo código.',
      });
    });

    it('rejects a code after 10 minutes', async () => {
      const { email, ip, code } = await accountWithCode();
      clock.advance(10 * MINUTE);
      const late = await post('/api/auth/login', { email, code }, ip);
      expect(late.statusCode).toBe(400);
      expect(late.json().code).toBe('CODE_EXPIRED');

      await post('/api/auth/request-code', { email }, ip);
      clock.advance(10 * MINUTE - 1000);
      expect((await post('/api/auth/login', { email, code: readLoginCode(server, email) }, ip)).statusCode).toBe(200);
    });

    it('voids the code at the fifth wrong attempt', async () => {
      const { email, ip, code } = await accountWithCode();
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let attempt = 1; attempt <= 4; attempt++) {
        const res = await post('/api/auth/login', { email, code: wrong }, ip);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          code: 'INVALID_CODE',
          message: 'Código inválido.',
          details: { attemptsLeft: 5 - attempt },
        });
      }
      const fifth = await post('/api/auth/login', { email, code: wrong }, ip);
      expect(fifth.statusCode).toBe(400);
      expect(fifth.json()).toMatchObject({
        code: 'CODE_ATTEMPTS_EXCEEDED',
        message: 'Código bloqueado após 5 tentativas erradas. Solicite um novo código.',
      });
      // Even the right code no longer works…
      const right = await post('/api/auth/login', { email, code }, ip);
      expect(right.statusCode).toBe(400);
      expect(right.json().code).toBe('CODE_EXPIRED');
      // …until a new one is requested.
      await post('/api/auth/request-code', { email }, ip);
      expect((await post('/api/auth/login', { email, code: readLoginCode(server, email) }, ip)).statusCode).toBe(200);
    });

    it('never compares more than 5 guesses per code, even when they arrive at once', async () => {
      const { email, ip, code } = await accountWithCode();
      const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
      const results = await Promise.all(
        Array.from({ length: 8 }, () => post('/api/auth/login', { email, code: wrong }, ip)),
      );
      const codes = results.map((r) => r.json().code);
      expect(codes.filter((c) => c === 'INVALID_CODE' || c === 'CODE_ATTEMPTS_EXCEEDED')).toHaveLength(5);
      expect(codes.filter((c) => c === 'CODE_EXPIRED')).toHaveLength(3);
    });

    it("validates the code's length with the spec's message", async () => {
      for (const code of ['', '12345', '1234567', undefined]) {
        const res = await post('/api/auth/login', { email: 'a@b.com', code });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'O código deve conter 6 caracteres.' });
      }
    });

    it('answers INVALID_CODE for an e-mail with no account', async () => {
      const res = await post('/api/auth/login', { email: uniqueEmail('ghost'), code: '123456' });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_CODE');
    });
  });

  describe('POST /api/auth/resend-code', () => {
    it('sends a new code and voids the previous one', async () => {
      const { email, ip, code: first } = await accountWithCode();
      const res = await post('/api/auth/resend-code', { email }, ip);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, message: 'Código reenviado com sucesso.', expiresInSeconds: 600 });
      const second = readLoginCode(server, email);
      if (second !== first) {
        // The old code is checked against the live (new) one, so it is simply a wrong code now.
        const old = await post('/api/auth/login', { email, code: first }, ip);
        expect(old.statusCode).toBe(400);
        expect(old.json().code).toBe('INVALID_CODE');
      }
      expect((await post('/api/auth/login', { email, code: second }, ip)).statusCode).toBe(200);
    });

    it('answers like request-code for unknown and deactivated accounts', async () => {
      expect((await post('/api/auth/resend-code', { email: uniqueEmail('nobody') })).json().code).toBe(
        'EMAIL_NOT_FOUND',
      );
      const { email, user } = await newAccount();
      await server.modules.users.deactivate(user.id);
      const res = await post('/api/auth/resend-code', { email });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Usuario desativado.');
    });
  });

  describe('deactivated accounts', () => {
    it('cannot request a code: 403 "Usuario desativado."', async () => {
      const { email, user } = await newAccount();
      await server.modules.users.deactivate(user.id);
      const res = await post('/api/auth/request-code', { email });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'USER_DEACTIVATED', message: 'Usuario desativado.' });
    });

    it('lose every session at once, and a code sent before no longer works', async () => {
      const { email, token, user } = await signUpAndSignIn(server);
      const second = await signIn(server, email, { remainLogin: true });
      const ip = uniqueIp();
      await post('/api/auth/request-code', { email }, ip);
      const code = readLoginCode(server, email);
      await server.modules.users.deactivate(user.id);

      expect((await me(bearer(token))).statusCode).toBe(401);
      expect((await me(bearer(second.token))).statusCode).toBe(401);
      const revoked = await sql<{ n: number }>(
        'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null',
        [user.id],
      );
      expect(revoked[0]!.n).toBe(0);
      const login = await post('/api/auth/login', { email, code }, ip);
      expect(login.statusCode).toBe(403);
      expect(login.json().message).toBe('Usuario desativado.');

      // Reactivated, the account signs in again; the old tokens stay dead.
      await server.modules.users.reactivate(user.id);
      const fresh = await signIn(server, email);
      expect((await me(bearer(fresh.token))).statusCode).toBe(200);
      expect((await me(bearer(token))).statusCode).toBe(401);
    });

    it('are refused by the guard even if a session row was somehow left live', async () => {
      const { token, user } = await signUpAndSignIn(server);
      await sql('update users set active = false where id = $1', [user.id]);
      expect((await me(bearer(token))).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the token; repeating it, or calling it without one, is harmless', async () => {
      const { token } = await signUpAndSignIn(server);
      const other = await signUpAndSignIn(server);
      const res = await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await me(bearer(token))).statusCode).toBe(401);
      expect((await me(bearer(other.token))).statusCode).toBe(200);
      expect(
        (await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: token } }))
          .statusCode,
      ).toBe(204);
      expect((await server.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(204);
    });
  });

  describe('session expiry', () => {
    it('without remainLogin: ends 12 hours after sign-in, however active', async () => {
      const { token } = await signUpAndSignIn(server, { remainLogin: false });
      for (let h = 0; h < 11; h++) {
        clock.advance(HOUR);
        expect((await me(bearer(token))).statusCode).toBe(200);
      }
      clock.advance(HOUR - 1000);
      expect((await me(bearer(token))).statusCode).toBe(200);
      clock.advance(1000);
      expect((await me(bearer(token))).statusCode).toBe(401);
    });

    it('with remainLogin: lasts while used, ends after 30 days idle', async () => {
      const { token } = await signUpAndSignIn(server, { remainLogin: true });
      clock.advance(29 * DAY);
      expect((await me(bearer(token))).statusCode).toBe(200);
      clock.advance(29 * DAY);
      expect((await me(bearer(token))).statusCode).toBe(200); // 58 days after sign-in, used 29 days ago
      clock.advance(30 * DAY + MINUTE);
      expect((await me(bearer(token))).statusCode).toBe(401);
    });

    it('reads remainLogin from the query string when the body leaves it out', async () => {
      const { email, ip, code } = await accountWithCode();
      const res = await post('/api/auth/login?remainLogin=true', { email, code }, ip);
      expect(res.statusCode).toBe(200);
      const token = res.json().accessToken;
      clock.advance(20 * DAY);
      expect((await me(bearer(token))).statusCode).toBe(200);
    });

    it('records use at most once a minute', async () => {
      const { token, user } = await signUpAndSignIn(server, { remainLogin: true });
      const lastSeen = async () =>
        new Date(
          (await sql<{ t: Date }>('select last_seen_at as t from sessions where user_id = $1', [user.id]))[0]!.t,
        ).getTime();
      const signedInAt = await lastSeen();
      clock.advance(30_000);
      await me(bearer(token));
      expect(await lastSeen()).toBe(signedInAt);
      clock.advance(31_000);
      await me(bearer(token));
      expect(await lastSeen()).toBe(clock.now().getTime());
    });
  });

  describe('abuse limits', () => {
    it('allows 5 code requests per e-mail in 15 minutes, then 429 with a clear message', async () => {
      const { email } = await newAccount();
      for (let i = 0; i < 3; i++) expect((await post('/api/auth/request-code', { email })).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await post('/api/auth/resend-code', { email })).statusCode).toBe(200);
      const limited = await post('/api/auth/request-code', { email });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: 'Muitas solicitações de código para este e-mail. Aguarde 15 minutos e tente novamente.',
        details: { retryAfterSeconds: 900 },
      });
      expect(limited.headers['retry-after']).toBe('900');
      expect((await post('/api/auth/resend-code', { email })).statusCode).toBe(429);

      clock.advance(15 * MINUTE);
      expect((await post('/api/auth/request-code', { email })).statusCode).toBe(200);
    });

    it('allows at most 20 code requests per e-mail a day', async () => {
      const { email } = await newAccount();
      for (let round = 0; round < 4; round++) {
        for (let i = 0; i < 5; i++) expect((await post('/api/auth/request-code', { email })).statusCode).toBe(200);
        clock.advance(15 * MINUTE);
      }
      const limited = await post('/api/auth/request-code', { email });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/^Muitas solicitações de código para este e-mail\. Aguarde \d+ minutos/);
      clock.advance(DAY);
      expect((await post('/api/auth/request-code', { email })).statusCode).toBe(200);
    });

    it('allows 20 code requests per IP in 15 minutes, known e-mails or not', async () => {
      const ip = uniqueIp();
      for (let i = 0; i < 20; i++) {
        expect((await post('/api/auth/request-code', { email: uniqueEmail('probe') }, ip)).statusCode).toBe(404);
      }
      const { email } = await newAccount();
      const limited = await post('/api/auth/request-code', { email }, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe(
        'Muitas solicitações de código a partir desta rede. Aguarde 15 minutos e tente novamente.',
      );
      expect((await post('/api/auth/request-code', { email }, uniqueIp())).statusCode).toBe(200);
      clock.advance(15 * MINUTE);
      expect((await post('/api/auth/request-code', { email }, ip)).statusCode).toBe(200);
    });

    it('allows 20 failed sign-ins per IP in 15 minutes', async () => {
      const ip = uniqueIp();
      for (let i = 0; i < 20; i++) {
        expect((await post('/api/auth/login', { email: uniqueEmail('guess'), code: '000000' }, ip)).statusCode).toBe(
          400,
        );
      }
      const { email } = await newAccount();
      await post('/api/auth/request-code', { email }, uniqueIp());
      const code = readLoginCode(server, email);
      const limited = await post('/api/auth/login', { email, code }, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: 'Muitas tentativas de login. Aguarde 15 minutos e tente novamente.',
      });
      // The limit did not spend the code: another network signs in with it.
      expect((await post('/api/auth/login', { email, code }, uniqueIp())).statusCode).toBe(200);
    });

    it('prunes limit events older than two days by the database clock', async () => {
      const subject = uniqueIp();
      await sql(
        `insert into auth_attempts (kind, subject, created_at) values
           ('code:ip', $1, now() - interval '3 days'), ('code:ip', $1, now() - interval '1 day')`,
        [subject],
      );
      await createAuthRepository(server.db.db).prune();
      const left = await sql<{ n: number }>('select count(*)::int as n from auth_attempts where subject = $1', [
        subject,
      ]);
      expect(left[0]!.n).toBe(1);
    });

    it('holds across processes: the limits live in the database', async () => {
      const { email } = await newAccount();
      const other = await createTestServer({ clock, db: server.db });
      try {
        for (let i = 0; i < 5; i++) {
          const target = i % 2 === 0 ? server : other;
          const res = await requestCode(target, email);
          expect(res.statusCode).toBe(200);
        }
        const res = await requestCode(other, email);
        expect(res.statusCode).toBe(429);
      } finally {
        await other.close();
      }
    });
  });
});

describe(`sign-in when the mail cannot be sent (${dbKind})`, () => {
  it('answers 503 MAIL_FAILED, never a bare 500', async () => {
    const server = await createTestServer({ config: testConfig({ SMTP_URL: 'smtp://127.0.0.1:1' }) });
    try {
      const payload = signupPayload();
      await server.app.inject({ method: 'POST', url: '/api/user', payload, remoteAddress: uniqueIp() });
      const res = await requestCode(server, payload.email);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'MAIL_FAILED',
        message: 'Não foi possível enviar o e-mail com o código. Tente novamente em instantes.',
      });
      const doc = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(Object.keys(doc.json().paths)).toEqual(
        expect.arrayContaining([
          '/api/auth/request-code',
          '/api/auth/resend-code',
          '/api/auth/login',
          '/api/auth/logout',
          '/api/user',
          '/api/me',
        ]),
      );
    } finally {
      await server.close();
    }
  });
});

/** The decoded Subject header of an .eml. */
function subjectOf(eml: string): string {
  const unfolded = eml.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return decodeMimeWords(/^Subject: (.*)$/m.exec(unfolded)![1]!);
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=), possibly folded over lines. */
function decodeMimeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}
