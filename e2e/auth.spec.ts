import { expect, type Page, test } from '@playwright/test';
import {
  createAccount,
  mailsTo,
  pasteInto,
  randomCnpj,
  signIn,
  signInAsAdmin,
  signOutViaUi,
  typeCode,
  uniqueEmail,
  useOwnNetwork,
  waitForCode,
} from './auth.test-support';
import { snap } from './screens.test-support';

const TOKEN_KEY = '@legacy:token';

const dataLayerEvents = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).map((entry) => entry.event),
  );
const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
const box = (page: Page, i: number) => page.getByTestId(`code-box-${i}`);
const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

test.beforeEach(({ context }) => useOwnNetwork(context));

async function chooseLanguage(page: Page, name: string) {
  await page.getByTestId('language-switcher').click();
  await page.getByRole('option', { name }).click();
}

test.describe('sign-up and sign-in', () => {
  test('a new company signs up, gets the code by e-mail, signs in, reloads, stays signed in and signs out', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('signup');
    const cnpj = randomCnpj();
    await page.goto('/campanhas?utm_source=e2e&utm_campaign=lancamento');

    // Step 0 on any route, with the spec's texts.
    await expect(page).toHaveTitle('Ecoa | Login');
    await expect(page.getByRole('heading', { name: 'Acesse sua conta' })).toBeVisible();
    await expect(page.getByText('Manter sessao ativa nesta conta')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeVisible();
    await expect(page.getByText('Comunicação multicanal inteligente para escalar sua receita')).toBeVisible();

    // Keyboard: e-mail → checkbox → Continuar.
    await page.getByTestId('login-email').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('login-remember')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('login-submit')).toBeFocused();

    // An empty or malformed e-mail: the spec's message.
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('E-mail é obrigatório.')).toBeVisible();

    // 0 → 2 via create account (analytics event 'cria-conta').
    await page.getByTestId('create-account').click();
    await expect(page).toHaveTitle('Ecoa | Cadastro');
    expect(await dataLayerEvents(page)).toContain('cria-conta');
    for (const label of ['Seu Nome completo', 'Empresa', 'Email', 'CNPJ', 'Celular']) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }

    // Every field's message, exactly.
    await page.getByTestId('signup-submit').click();
    for (const message of [
      '* Nome completo é obrigatório',
      '* Empresa é obrigatório',
      '* E-mail é obrigatório',
      '* CNPJ é obrigatório',
      '* Número do Celular é obrigatório',
      '* Você precisa aceitar os termos de uso',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await snap(page, 'auth-signup-errors-pt-light');

    // Masks: the spec's shape; since July 2026 letters too (the alphanumeric CNPJ, upper-cased), symbols dropped.
    await page.getByTestId('signup-cnpj').pressSequentially(`ab${cnpj.slice(0, 4)}#`);
    await expect(page.getByTestId('signup-cnpj')).toHaveValue(`AB.${cnpj.slice(0, 3)}.${cnpj.slice(3, 4)}`);
    await page.getByTestId('signup-cnpj').pressSequentially('12');
    await expect(page.getByText('* CNPJ deve conter 14 dígitos')).toBeVisible();
    await page.getByTestId('signup-cnpj').fill('');
    await page.getByTestId('signup-cnpj').pressSequentially(cnpj);
    await expect(page.getByTestId('signup-cnpj')).toHaveValue(
      `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`,
    );
    await page.getByTestId('signup-mobilePhone').pressSequentially('(11) 9a8765-4321');
    await expect(page.getByTestId('signup-mobilePhone')).toHaveValue('(11) 98765-4321');

    // The terms of use are a real PDF shipped with the app.
    const terms = page.getByTestId('signup-terms-link');
    await expect(terms).toHaveAttribute('href', '/termos-de-uso.pdf');
    await expect(terms).toHaveAttribute('target', '_blank');
    const pdf = await page.request.get('/termos-de-uso.pdf');
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await page.getByTestId('signup-fullName').fill('Maria da Silva');
    await page.getByTestId('signup-company').fill('Padaria Central');
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-terms').check();
    await snap(page, 'auth-signup-filled-pt-light');
    const signupRequest = page.waitForRequest((r) => r.url().endsWith('/api/user') && r.method() === 'POST');
    await page.getByTestId('signup-submit').click();
    const payload = (await signupRequest).postDataJSON();
    expect(payload).toMatchObject({
      email,
      name: 'Padaria Central',
      fantasyName: 'Padaria Central',
      fullName: 'Maria da Silva',
      terms: true,
      cnpj,
      mobilePhone: '11987654321',
      priceTable: { smsShort: 0, smsFlash: 0, whatsapp: 0, ura: 0, enriched: 0, rcs: 0, uraIntegration: 0 },
      utm_source: 'e2e',
      utm_campaign: 'lancamento',
    });

    // The success modal; "Falar com o suporte" opens the chat with company and e-mail.
    const modal = page.getByRole('dialog', { name: 'Conta criada com sucesso!' });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Cancelar' })).toBeVisible();
    await snap(page, 'auth-signup-success-pt-light');
    await context.route('https://wa.me/**', (route) => route.fulfill({ contentType: 'text/html', body: 'chat' }));
    const popup = page.waitForEvent('popup');
    await modal.getByRole('button', { name: 'Falar com o suporte' }).click();
    const chat = new URL((await popup).url());
    expect(chat.origin + chat.pathname).toBe('https://wa.me/5521987654321');
    expect(chat.searchParams.get('text')).toContain('Padaria Central');
    expect(chat.searchParams.get('text')).toContain(email);
    await expect(toast(page, 'Você será redirecionado para o WhatsApp para concluir seu cadastro.')).toBeVisible();
    expect(await dataLayerEvents(page)).toContain('whatsapp');
    await expect(modal).toBeHidden();

    // Back on step 0 with the e-mail filled in; without "Manter sessao ativa".
    await expect(page.getByTestId('login-email')).toHaveValue(email);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('code-step')).toBeVisible();
    await expect(page).toHaveTitle('Ecoa | Login');
    await expect(page.getByText(email)).toBeVisible();
    await expect(
      page.getByText('Não recebeu o e-mail? Confira também a caixa de spam ou lixo eletrônico.'),
    ).toBeVisible();
    await expect(page.getByTestId('code-resend')).toBeDisabled();
    await expect(page.getByTestId('code-resend')).toHaveText(/^Reenviar código em ([1-9]|10)s$/);

    // Shorter than six: the spec's message.
    await typeCode(page, '12');
    await page.getByTestId('code-submit').click();
    await expect(page.getByText('O código deve conter 6 caracteres.')).toBeVisible();

    const code = await waitForCode(email);
    const loginRequest = page.waitForRequest((r) => r.url().includes('/api/auth/login'));
    await typeCode(page, code);
    await expect(box(page, 5)).toBeFocused();
    await page.getByTestId('code-submit').click();
    const login = await loginRequest;
    expect(new URL(login.url()).searchParams.get('remainLogin')).toBe('false');
    expect(login.postDataJSON()).toEqual({ code, email, remainLogin: false });

    // Signed in, on the route asked for.
    await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    expect(await storedToken(page)).toBeTruthy();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await snap(page, 'auth-signed-in-pt-light');

    // Sign out: the token is revoked on the server and forgotten here.
    const token = await storedToken(page);
    await signOutViaUi(page);
    await expect(page.getByTestId('login-step')).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    const me = await page.request.get('/api/me', { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);
  });

  test('"Manter sessao ativa": remainLogin=true, and the session survives a reload', async ({ page, request }) => {
    const account = await createAccount(request);
    await page.goto('/');
    await page.getByTestId('login-email').fill(account.email);
    await page.getByTestId('login-remember').check();
    await page.getByTestId('login-submit').click();
    const loginRequest = page.waitForRequest((r) => r.url().includes('/api/auth/login'));
    await typeCode(page, await waitForCode(account.email));
    await page.getByTestId('code-submit').click();
    const login = await loginRequest;
    expect(new URL(login.url()).searchParams.get('remainLogin')).toBe('true');
    expect(login.postDataJSON()).toMatchObject({ email: account.email, remainLogin: true });
    await expect(page.getByTestId('user-menu')).toBeVisible();

    await page.reload();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.goto('/listas');
    await expect(page.getByRole('heading', { name: 'Listas' })).toBeVisible();
  });

  test('code boxes: typing moves forward, Backspace on an empty box moves back, paste takes exactly six digits', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.goto('/');
    await page.getByTestId('login-email').fill(account.email);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('code-step')).toBeVisible();
    await expect(box(page, 0)).toBeFocused();

    await page.keyboard.type('12');
    await expect(box(page, 2)).toBeFocused();
    await page.keyboard.type('a');
    await expect(box(page, 2)).toHaveValue('');
    await page.keyboard.press('Backspace');
    await expect(box(page, 1)).toBeFocused();
    await page.keyboard.press('Backspace');
    await expect(box(page, 1)).toHaveValue('');
    await expect(box(page, 1)).toBeFocused();
    await page.keyboard.press('Backspace');
    await expect(box(page, 0)).toBeFocused();
    await expect(box(page, 0)).toHaveValue('1');

    const values = () => Promise.all([0, 1, 2, 3, 4, 5].map((i) => box(page, i).inputValue()));
    for (const bad of ['12345', '1234567', '12a456', '12 3456']) {
      await pasteInto(page, 'code-box-3', bad);
      expect(await values(), `paste of "${bad}"`).toEqual(['1', '', '', '', '', '']);
    }

    // A wrong code: the translated invalid-code toast.
    const code = await waitForCode(account.email);
    const wrong = code.replace(/^./, (d) => String((Number(d) + 1) % 10));
    await pasteInto(page, 'code-box-2', wrong);
    expect((await values()).join('')).toBe(wrong);
    await expect(box(page, 5)).toBeFocused();
    await page.getByTestId('code-submit').click();
    await expect(toast(page, 'Código inválido. Confira o código enviado para o seu e-mail.')).toBeVisible();
    await expect(box(page, 0)).toBeFocused();

    // "Voltar" leads back to step 0, the e-mail kept.
    await page.getByTestId('code-back').click();
    await expect(page.getByTestId('login-email')).toHaveValue(account.email);
    await page.getByTestId('login-submit').click();
    const next = await waitForCode(account.email, 2);

    await pasteInto(page, 'code-box-0', ` ${next}\n`);
    expect((await values()).join('')).toBe(next);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('user-menu')).toBeVisible();
  });

  test('resend: disabled for 10 s, then sends a new code and waits 60 s', async ({ page, request }) => {
    test.setTimeout(45_000);
    const account = await createAccount(request);
    await page.goto('/');
    await page.getByTestId('login-email').fill(account.email);
    await page.getByTestId('login-submit').click();
    const resend = page.getByTestId('code-resend');
    await expect(resend).toHaveText(/^Reenviar código em (9|10)s$/);
    await expect(resend).toBeDisabled();
    await expect(resend).toHaveText('Reenviar código', { timeout: 12_000 });
    await expect(resend).toBeEnabled();
    await resend.click();
    await expect(toast(page, 'Código reenviado com sucesso.')).toBeVisible();
    await expect(resend).toHaveText(/^Reenviar código em (59|60)s$/);
    await expect(resend).toBeDisabled();

    const fresh = await waitForCode(account.email, 2);
    await typeCode(page, fresh);
    await page.getByTestId('code-submit').click();
    await expect(page.getByTestId('user-menu')).toBeVisible();
  });

  test('code request errors: unknown e-mail, deactivated account, rate limit; 2 → 0 via Voltar', async ({
    page,
    browser,
  }) => {
    await page.goto('/');
    await page.getByTestId('login-email').fill(uniqueEmail('nobody'));
    await page.getByTestId('login-submit').click();
    await expect(toast(page, 'E-mail inválido ou não cadastrado.')).toBeVisible();
    await expect(page.getByTestId('login-step')).toBeVisible();

    // A deactivated account, as the real server answers it: an administrator (signed in in a
    // context of their own, so this page stays signed out) deactivates it through the API.
    const inactive = await createAccount(page.request);
    const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    try {
      const adminPage = await adminContext.newPage();
      const adminToken = await signInAsAdmin(adminPage);
      const auth = { Authorization: `Bearer ${adminToken}` };
      const found = await page.request.get(`/api/v1/admin/users?search=${encodeURIComponent(inactive.email)}`, {
        headers: auth,
      });
      const userId = ((await found.json()).items as { id: string }[])[0]!.id;
      const off = await page.request.patch(`/api/v1/admin/users/${userId}`, { headers: auth, data: { active: false } });
      expect(off.status(), await off.text()).toBe(200);
    } finally {
      await adminContext.close();
    }
    await page.getByTestId('login-email').fill(inactive.email);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, 'Esta conta não está ativa.')).toBeVisible();

    // The real rate limit: an account that already asked for 5 codes in this quarter of an hour.
    const busy = await createAccount(page.request);
    for (let i = 0; i < 5; i++) {
      const asked = await page.request.post('/api/auth/request-code', { data: { email: busy.email } });
      expect(asked.status(), await asked.text()).toBeLessThan(300);
    }
    await page.getByTestId('login-email').fill(busy.email);
    await page.getByTestId('login-submit').click();
    await expect(toast(page, /^Muitas tentativas\. Aguarde 1[45] min e tente novamente\.$/)).toBeVisible();

    await page.getByTestId('create-account').click();
    await expect(page.getByTestId('signup-step')).toBeVisible();
    await page.getByTestId('signup-back').click();
    await expect(page.getByTestId('login-step')).toBeVisible();
    await expect(page).toHaveTitle('Ecoa | Login');
  });

  test('a sign-up failure shows the server message (translated by its code)', async ({ page, request }) => {
    const existing = await createAccount(request);
    await page.goto('/');
    await page.getByTestId('create-account').click();
    await page.getByTestId('signup-fullName').fill('Outra Pessoa');
    await page.getByTestId('signup-company').fill('Outra Empresa');
    await page.getByTestId('signup-email').fill(existing.email.toUpperCase());
    await page.getByTestId('signup-cnpj').pressSequentially(randomCnpj());
    await page.getByTestId('signup-mobilePhone').pressSequentially('21999998888');
    await page.getByTestId('signup-terms').check();
    await page.getByTestId('signup-submit').click();
    await expect(toast(page, 'Este e-mail já está cadastrado. Entre com ele ou use outro e-mail.')).toBeVisible();
    await expect(page.getByTestId('signup-step')).toBeVisible();

    // A CNPJ with wrong check digits is refused before it is sent.
    await page.getByTestId('signup-cnpj').fill('');
    await page.getByTestId('signup-cnpj').pressSequentially('11222333000182');
    await page.getByTestId('signup-submit').click();
    await expect(page.getByText('* CNPJ inválido', { exact: true })).toBeVisible();
  });

  test('a stored session loads behind a spinner; an expired one shows the login-expired toast', async ({
    page,
    request,
  }) => {
    // Sign-in, two reloads of the whole app and a delayed /api/me: 31 s at load 12, past the default 30.
    test.setTimeout(90_000);
    const account = await createAccount(request);
    await page.goto('/');
    await signIn(page, account.email);

    await page.route('**/api/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.reload();
    await expect(page.getByTestId('session-loader')).toBeVisible();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.unroute('**/api/me');

    // Set before the page's scripts run: written into the live page, a request the dashboard was
    // still making carried it, got a 401 and signed out silently before the reload (CI, both runs).
    await page.addInitScript((key) => localStorage.setItem(key, 'expired-or-forged-token'), TOKEN_KEY);
    await page.reload();
    await expect(toast(page, 'Sua sessão expirou. Faça login novamente.')).toBeVisible();
    await expect(page.getByTestId('login-step')).toBeVisible();
    expect(await storedToken(page)).toBeNull();
  });
});

test.describe('code splitting', () => {
  test('signed out, only the sign-in code is downloaded; signing in fetches the frame and the page asked for', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    const loaded = (chunk: string) => scripts.some((path) => path.startsWith(`/assets/${chunk}-`));

    await page.goto('/listas');
    await expect(page.getByTestId('login-step')).toBeVisible();
    // Neither the router with the frame (SignedInRoutes) nor zod (validation: fetched once the visitor types).
    const later = ['SignedInRoutes', 'signed-in', 'validation', 'ListsPage', 'SignupStep', 'forms', 'confetti.module'];
    for (const chunk of later) {
      expect(loaded(chunk), `${chunk} before signing in`).toBe(false);
    }

    await signIn(page, account.email);
    await expect(page.getByRole('heading', { name: 'Listas' })).toBeVisible();
    expect(loaded('SignedInRoutes')).toBe(true);
    expect(loaded('ListsPage')).toBe(true);
    expect(loaded('SignupStep')).toBe(false);
    expect(errors.filter((e) => /Content Security Policy|dynamically imported module/i.test(e))).toEqual([]);
  });
});

test.describe('languages, themes and layouts', () => {
  const LANGUAGES = [
    { lng: 'pt', option: 'Português', title: ['Ecoa | Login', 'Ecoa | Cadastro'], continue: 'Continuar' },
    { lng: 'en', option: 'English', title: ['Ecoa | Login', 'Ecoa | Sign up'], continue: 'Continue' },
    { lng: 'cn', option: '简体中文', title: ['Ecoa | 登录', 'Ecoa | 注册'], continue: '继续' },
  ] as const;

  for (const scheme of ['light', 'dark'] as const) {
    test(`every step in pt, en and cn, ${scheme} theme`, async ({ page, request }) => {
      const account = await createAccount(request, { name: 'Loja Exemplo' });
      await page.addInitScript((value) => localStorage.setItem('color-mode', value), scheme);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);

      for (const { lng, option, title, continue: cont } of LANGUAGES) {
        await chooseLanguage(page, option);
        await expect(page.getByRole('button', { name: cont })).toBeVisible();
        await expect(page).toHaveTitle(title[0]);
        await snap(page, `auth-login-${lng}-${scheme}`);
        await page.getByTestId('create-account').click();
        await expect(page).toHaveTitle(title[1]);
        await page.getByTestId('signup-submit').click();
        await snap(page, `auth-signup-${lng}-${scheme}`);
        await page.getByTestId('signup-back').click();
      }

      // One code request, then the code step in each language.
      await chooseLanguage(page, 'Português');
      await page.getByTestId('login-email').fill(account.email);
      await page.getByTestId('login-submit').click();
      await expect(page.getByTestId('code-step')).toBeVisible();
      for (const { lng, option } of LANGUAGES) {
        await chooseLanguage(page, option);
        await page.getByTestId('code-submit').click();
        await expect(page.getByTestId('code-error')).toBeVisible();
        await snap(page, `auth-code-${lng}-${scheme}`);
      }
      await expect(page.getByTestId('code-error')).toHaveText('验证码必须为 6 个字符。');
      await expect(page.getByTestId('code-resend')).toBeVisible();
    });
  }

  test('the sign-in flow in English and Chinese, end to end', async ({ page, request }) => {
    for (const { lng, option } of LANGUAGES.slice(1)) {
      const account = await createAccount(request);
      await page.goto('/');
      await chooseLanguage(page, option);
      await signIn(page, account.email);
      await expect(page.locator('html')).toHaveAttribute('lang', lng === 'cn' ? 'zh-CN' : 'en');
      await signOutViaUi(page);
      await expect(page.getByTestId('login-step')).toBeVisible();
    }
    await expect(page.getByRole('button', { name: '继续' })).toBeVisible();
  });

  test('the layout stacks on a phone and adjusts on a tablet', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByTestId('login-step')).toBeVisible();
    await snap(page, 'auth-login-pt-phone');
    await page.getByTestId('create-account').click();
    await snap(page, 'auth-signup-pt-phone');
    await page.getByTestId('signup-back').click();

    const account = await createAccount(request);
    await page.getByTestId('login-email').fill(account.email);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('code-step')).toBeVisible();
    await snap(page, 'auth-code-pt-phone');

    await page.setViewportSize({ width: 820, height: 1100 });
    await snap(page, 'auth-code-pt-tablet');
    await page.getByTestId('code-back').click();
    await snap(page, 'auth-login-pt-tablet');
    expect(mailsTo(account.email).length).toBe(1);
  });
});
