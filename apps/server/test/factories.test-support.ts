/**
 * Test factories shared by every module's tests. They go through the real HTTP endpoints
 * (sign-up, request-code, the outbox e-mail, login), so a test's user is exactly what a real
 * user would be. Each call makes a new user with a unique e-mail and its own client IP, so
 * tests never collide (the PostgreSQL suite shares one database) nor trip the abuse limits.
 *
 *   const { user, token, email } = await signUpAndSignIn(server);
 *   await server.app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
 *   await makeAdmin(server, user.id);   // the same token is an administrator's from now on
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PublicUser } from '@ecoa/shared';
import { cnpjCheckDigits } from '@ecoa/shared';
import { eq } from 'drizzle-orm';
import { users } from '../src/modules/users/users.schema.ts';
import { outboxDir, safeFilePart } from '../src/platform/mail/mailer.ts';
import type { RunningServer } from '../src/server.ts';

/** A fresh, unique e-mail address. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${crypto.randomBytes(4).toString('hex')}@ecoa.test`;
}

/** A random client address in 10.0.0.0/8, for `inject({ remoteAddress })`. */
export function uniqueIp(): string {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${(b[2]! % 254) + 1}`;
}

/** A random CNPJ with correct check digits (digits only). */
export function validCnpj(): string {
  const digits = [...crypto.randomBytes(8)].map((b) => b % 10).concat([0, 0, 0, 1]);
  const check = (ds: number[]) => {
    const weights = ds.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const rest = weights.reduce((acc, w, i) => acc + w * ds[i]!, 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  return digits.join('');
}

/** A random alphanumeric CNPJ (the Receita's form from July 2026): 12 characters 0-9A-Z, 2 check digits. */
export function validAlphanumericCnpj(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const first12 = [...crypto.randomBytes(12)].map((b) => alphabet[b % 36]).join('');
  return `${first12}${cnpjCheckDigits(first12)}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type SignupOverrides = {
  email?: string;
  name?: string;
  fullName?: string;
  cnpj?: string;
  mobilePhone?: string;
  language?: 'pt' | 'en' | 'cn';
  remainLogin?: boolean;
  [utm: `utm_${string}`]: string | undefined;
};

/** The spec's sign-up payload (as the web sends it), with a unique e-mail and a valid CNPJ. */
export function signupPayload(overrides: Omit<SignupOverrides, 'remainLogin'> = {}) {
  return {
    email: uniqueEmail(),
    name: 'Padaria Pão Quente',
    fantasyName: overrides.name ?? 'Padaria Pão Quente',
    fullName: 'Maria da Silva',
    cnpj: validCnpj(),
    mobilePhone: '11987654321',
    terms: true,
    priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, enriched: 0, rcs: 0, uraIntegration: 0 },
    ...overrides,
  };
}

/** The newest `.eml` in the server's outbox addressed to `email`, as text; undefined if none. */
export function latestMailTo(server: RunningServer, email: string): string | undefined {
  const dir = outboxDir(server.config.dataDir);
  if (!fs.existsSync(dir)) return undefined;
  const suffix = `-${safeFilePart(email)}.eml`;
  const newest = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .sort()
    .at(-1);
  return newest ? fs.readFileSync(path.join(dir, newest), 'utf8') : undefined;
}

/** The 6-digit code of the newest sign-in e-mail to `email` (it stands alone on its own line). */
export function readLoginCode(server: RunningServer, email: string): string {
  const eml = latestMailTo(server, email);
  const code = eml && /^(\d{6})\r?$/m.exec(eml)?.[1];
  if (!code) throw new Error(`no sign-in code e-mail for ${email} in ${outboxDir(server.config.dataDir)}`);
  return code;
}

/** `POST /api/auth/request-code` for `email`, from `remoteAddress` (a fresh one by default). */
export function requestCode(server: RunningServer, email: string, remoteAddress = uniqueIp()) {
  return server.app.inject({ method: 'POST', url: '/api/auth/request-code', payload: { email }, remoteAddress });
}

/** Requests a code and signs in with it, over HTTP. */
export async function signIn(
  server: RunningServer,
  email: string,
  options: { remainLogin?: boolean; ip?: string } = {},
): Promise<{ token: string; user: PublicUser }> {
  const remoteAddress = options.ip ?? uniqueIp();
  const requested = await requestCode(server, email, remoteAddress);
  if (requested.statusCode !== 200) throw new Error(`request-code ${requested.statusCode}: ${requested.body}`);
  const remainLogin = options.remainLogin ?? false;
  const login = await server.app.inject({
    method: 'POST',
    url: `/api/auth/login?remainLogin=${remainLogin}`,
    payload: { email, code: readLoginCode(server, email), remainLogin },
    remoteAddress,
  });
  if (login.statusCode !== 200) throw new Error(`login ${login.statusCode}: ${login.body}`);
  const body = login.json() as { accessToken: string; user: PublicUser };
  return { token: body.accessToken, user: body.user };
}

/** A new company account, signed in: its public user, a session token and its e-mail. */
export async function signUpAndSignIn(
  server: RunningServer,
  overrides: SignupOverrides = {},
): Promise<{ user: PublicUser; token: string; email: string }> {
  const { remainLogin, ...fields } = overrides;
  const payload = signupPayload(fields);
  const ip = uniqueIp();
  const created = await server.app.inject({ method: 'POST', url: '/api/user', payload, remoteAddress: ip });
  if (created.statusCode !== 201) throw new Error(`sign-up ${created.statusCode}: ${created.body}`);
  const { token, user } = await signIn(server, payload.email, { remainLogin, ip });
  return { user, token, email: payload.email };
}

/** Makes a user an administrator (directly in the database; the admin screens come later). */
export async function makeAdmin(server: RunningServer, userId: string): Promise<void> {
  await server.db.db.update(users).set({ accessLevel: 'ADMINISTRATOR' }).where(eq(users.id, userId));
}
