import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test';

/** The server's mail outbox (no SMTP_URL in e2e): `${E2E_DATA_DIR}/outbox/*.eml`. */
export function outboxDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (see playwright.config.ts)');
  return path.join(dataDir, 'outbox');
}

/** Outbox files for one recipient, oldest first (`<epoch-ms>-<seq>-<recipient, @ as _at_>.eml`). */
export function mailsTo(email: string): string[] {
  const dir = outboxDir();
  if (!fs.existsSync(dir)) return [];
  const suffix = `-${email.toLowerCase().replace('@', '_at_')}.eml`;
  const order = (name: string) => name.split('-').slice(0, 2).map(Number) as [number, number];
  return fs
    .readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith(suffix))
    .sort((a, b) => {
      const [ta, sa] = order(a);
      const [tb, sb] = order(b);
      return ta - tb || sa - sb;
    })
    .map((name) => path.join(dir, name));
}

/**
 * Waits for the login code e-mail number `count` (1-based) to `email` and returns its code (a line
 * holding exactly six digits).
 */
export async function waitForCode(email: string, count = 1): Promise<string> {
  let code = '';
  await expect
    .poll(
      () => {
        const files = mailsTo(email);
        if (files.length < count) return '';
        code = /^(\d{6})\r?$/m.exec(fs.readFileSync(files[count - 1]!, 'utf8'))?.[1] ?? '';
        return code;
      },
      { timeout: 10_000, message: `login code e-mail #${count} to ${email}` },
    )
    .toMatch(/^\d{6}$/);
  return code;
}

/** A CNPJ with valid check digits. */
export function randomCnpj(): string {
  const base = Array.from({ length: 8 }, () => Math.floor(Math.random() * 10)).concat([0, 0, 0, 1]);
  const digit = (digits: number[]) => {
    const weights =
      digits.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const rest = digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base);
  const second = digit([...base, first]);
  return [...base, first, second].join('');
}

export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}@empresa.com.br`;
}

export type TestAccount = { email: string; name: string; fullName: string; cnpj: string; mobilePhone: string };

/** Creates an account through `POST /api/user` (the sign-up form is tested in auth.spec.ts). */
export async function createAccount(request: APIRequestContext, overrides: Partial<TestAccount> = {}) {
  const account: TestAccount = {
    email: uniqueEmail(),
    name: 'Empresa Teste',
    fullName: 'Pessoa Teste',
    cnpj: randomCnpj(),
    mobilePhone: '11987654321',
    ...overrides,
  };
  // Sign-ups are limited per client IP (10 an hour): each account comes from its own address.
  const res = await request.post('/api/user', {
    headers: { 'X-Forwarded-For': randomTestIp() },
    data: {
      ...account,
      fantasyName: account.name,
      terms: true,
      priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, enriched: 0, rcs: 0, uraIntegration: 0 },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return account;
}

/** Types a code into the six boxes, one key press per digit, starting from the first box. */
export async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByTestId('code-box-0').focus();
  await page.keyboard.type(code);
}

/** Signs in through the UI (steps 0 and 1) and waits for the signed-in app. */
export async function signIn(page: Page, email: string, options: { remainLogin?: boolean } = {}): Promise<void> {
  const before = mailsTo(email).length;
  await page.getByTestId('login-email').fill(email);
  if (options.remainLogin) await page.getByTestId('login-remember').check();
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('code-step')).toBeVisible();
  await typeCode(page, await waitForCode(email, before + 1));
  await page.getByTestId('code-submit').click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

/** Dispatches a paste of `text` on an element, as a real clipboard paste would. */
export async function pasteInto(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/**
 * The server limits code requests and failed sign-ins per client IP (ADR 002) and trusts
 * X-Forwarded-For: give each test its own documentation-range address, so a whole e2e run (every
 * spec signing in from 127.0.0.1) never trips the limits meant for one office network.
 */
export async function useOwnNetwork(context: BrowserContext): Promise<void> {
  await context.setExtraHTTPHeaders({ 'X-Forwarded-For': randomTestIp() });
}

/** An address in the benchmarking range 198.18.0.0/15, never a real client. */
function randomTestIp(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `198.18.${octet()}.${octet()}`;
}

/**
 * A signed-in page without going through the sign-in screens: creates an account, signs in through
 * the API (request-code, the e-mailed code, login) and stores the token where the app keeps it.
 */
export async function signInWithApi(page: Page, overrides: Partial<TestAccount> = {}) {
  const account = await createAccount(page.request, overrides);
  const token = await signInAs(page, account.email);
  return { ...account, token };
}

/** The administrator the e2e server creates on start (ADMIN_EMAIL in playwright.config.ts). */
export const E2E_ADMIN_EMAIL = 'admin@ecoa.test';

/**
 * Signs in as the e2e administrator, like signInWithApi. One account may request only 5 codes per
 * 15 minutes (the abuse limits), so the token is kept in the run's DATA_DIR and reused while the
 * server still accepts it (a spec that signs the admin out simply causes a new sign-in).
 */
export async function signInAsAdmin(page: Page): Promise<string> {
  const cache = path.join(process.env.E2E_DATA_DIR ?? '', 'e2e-admin-token');
  const cached = fs.existsSync(cache) ? fs.readFileSync(cache, 'utf8') : '';
  if (cached) {
    const me = await page.request.get('/api/me', { headers: { Authorization: `Bearer ${cached}` } });
    if (me.ok()) {
      await storeToken(page, cached);
      return cached;
    }
  }
  const token = await signInAs(page, E2E_ADMIN_EMAIL);
  fs.writeFileSync(cache, token);
  return token;
}

/**
 * Signs in an existing account through the API (request-code, the e-mailed code, login) and stores
 * the token where the app keeps it. The page is left on `/`; navigate (or reload) to use it.
 */
export async function signInAs(page: Page, email: string): Promise<string> {
  const before = mailsTo(email).length;
  const requested = await page.request.post('/api/auth/request-code', { data: { email } });
  expect(requested.status(), await requested.text()).toBe(200);
  const code = await waitForCode(email, before + 1);
  const login = await page.request.post('/api/auth/login?remainLogin=false', {
    data: { email, code, remainLogin: false },
  });
  expect(login.status(), await login.text()).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  await storeToken(page, accessToken);
  return accessToken;
}

/** Puts a session token where the app keeps it; the page is left on `/`. */
async function storeToken(page: Page, token: string): Promise<void> {
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('@legacy:token', value), token);
}

/** Signs out through the shell: the sidebar's "Sair", then "Sim, Sair" in the confirmation. */
export async function signOutViaUi(page: Page): Promise<void> {
  const sidebarLogout = page.getByTestId('sidebar-logout');
  if (await sidebarLogout.isVisible()) {
    await sidebarLogout.click();
  } else {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
  }
  await page.getByTestId('logout-confirm').click();
}
