import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { mailsTo, signInWithApi, useOwnNetwork, waitForCode } from './auth.test-support';
import { closeOnboarding, snap, switchLanguage, toggleTheme } from './screens.test-support';

const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A real picture for the upload: a 640×480 PNG (not square, so the crop shows). */
async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0ca678"/><stop offset="1" stop-color="#1c7ed6"/></linearGradient></defs>
    <rect width="640" height="480" fill="url(#g)"/>
    <circle cx="320" cy="200" r="90" fill="#fff" fill-opacity="0.9"/>
    <rect x="190" y="300" width="260" height="180" rx="120" fill="#fff" fill-opacity="0.9"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Signs the same account in once more through the API, as another device; answers its token. */
async function signInAnotherDevice(page: Page, email: string): Promise<string> {
  const before = mailsTo(email).length;
  const requested = await page.request.post('/api/auth/request-code', { data: { email } });
  expect(requested.status()).toBe(200);
  const code = await waitForCode(email, before + 1);
  const login = await page.request.post('/api/auth/login?remainLogin=true', {
    data: { email, code, remainLogin: true },
    headers: { 'user-agent': SAFARI_IPHONE },
  });
  expect(login.status(), await login.text()).toBe(200);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

/** Types into a masked field as a person would (select all, delete, type). */
async function retype(page: Page, testId: string, text: string): Promise<void> {
  const field = page.getByTestId(testId);
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await field.pressSequentially(text);
}

/**
 * Opens /configuracoes once the page signInWithApi left on `/` is idle: that page may notice the
 * new token and start GET /api/me, and navigating away mid-request made the app treat the
 * aborted request as an expired session (token cleared, login shown) — seen on PostgreSQL.
 */
async function openSettings(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
  await page.waitForLoadState('networkidle');
  await page.goto('/configuracoes');
  await closeOnboarding(page);
}

async function meStatus(page: Page, token: string): Promise<number> {
  return (await page.request.get('/api/me', { headers: { Authorization: `Bearer ${token}` } })).status();
}

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test.use({ viewport: { width: 1280, height: 900 } });

test('settings: edit the profile, upload a picture, end the other session, then sign out everywhere', async ({
  page,
}) => {
  // A long flow (two sign-ins, an upload, four screenshots) on a busy 2-core machine.
  test.setTimeout(90_000);
  const account = await signInWithApi(page, { name: 'Padaria Pão Quente', fullName: 'Maria da Silva' });
  await openSettings(page);

  // The profile: what sign-up stored, masked; e-mail and CNPJ read-only.
  await expect(page.getByTestId('profile-fullName')).toHaveValue('Maria da Silva');
  await expect(page.getByTestId('profile-company')).toHaveValue('Padaria Pão Quente');
  await expect(page.getByTestId('profile-mobilePhone')).toHaveValue('(11) 98765-4321');
  await expect(page.getByTestId('profile-email')).toHaveValue(account.email);
  await expect(page.getByTestId('profile-email')).toHaveAttribute('readonly', '');
  const cnpj = account.cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  await expect(page.getByTestId('profile-cnpj')).toHaveValue(cnpj);
  await expect(page.getByTestId('user-name')).toHaveText('Padaria Pã...');

  // A wrong phone: the sign-up message, nothing sent.
  await retype(page, 'profile-mobilePhone', '1198765');
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('* Número do Celular é obrigatório')).toBeVisible();

  // A right one, a new company name: saved, and the header's name follows.
  await retype(page, 'profile-mobilePhone', '21998765432');
  await expect(page.getByTestId('profile-mobilePhone')).toHaveValue('(21) 99876-5432');
  await page.getByTestId('profile-company').fill('Doceria Açúcar Mascavo');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('toast-success')).toContainText('Perfil atualizado.');
  await expect(page.getByTestId('user-name')).toHaveText('Doceria Aç...');
  await expect(page.getByTestId('profile-save')).toBeDisabled();

  // The picture: preview first (a blob: URL), then saved; the header's avatar shows it.
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: await photo() });
  await expect(page.getByTestId('picture-preview').locator('img')).toHaveAttribute('src', /^blob:/);
  await page.getByTestId('picture-save').click();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Foto de perfil atualizada.' })).toBeVisible();
  const avatar = page.getByTestId('user-menu').locator('img');
  await expect(avatar).toHaveAttribute('src', /\/api\/v1\/avatars\/[0-9a-f]{32}\.webp$/);
  // Loaded for real (no Authorization header, the CSP allows it): 256×256.
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
  await expect(page.getByTestId('picture-preview').locator('img')).toHaveAttribute('src', /\/api\/v1\/avatars\//);

  // Two sessions: this browser and "an iPhone".
  const phoneToken = await signInAnotherDevice(page, account.email);
  await page.reload();
  await closeOnboarding(page);
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('session-current')).toHaveText('Este dispositivo');
  await expect(rows.nth(1).getByTestId('session-device')).toHaveText('Safari no iOS');
  await page.mouse.move(0, 0);
  await snap(page, 'settings-pt-light');

  await toggleTheme(page);
  await switchLanguage(page, 'English');
  await expect(page.getByTestId('settings-sessions')).toContainText('Active sessions');
  await expect(rows.nth(1).getByTestId('session-device')).toHaveText('Safari on iOS');
  await page.mouse.move(0, 0);
  await snap(page, 'settings-en-dark');

  await switchLanguage(page, '简体中文');
  await expect(page.getByTestId('settings-sessions')).toContainText('活动会话');
  await page.mouse.move(0, 0);
  await snap(page, 'settings-cn-dark');
  await toggleTheme(page);
  await page.mouse.move(0, 0);
  await snap(page, 'settings-cn-light');
  await switchLanguage(page, 'Português');

  // End the other device: its token stops working; this one goes on.
  await rows.nth(1).getByTestId('session-end').click();
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Sessão encerrada.' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  expect(await meStatus(page, phoneToken)).toBe(401);

  // Sign out of all devices: back to the login, and the token is dead.
  const token = await page.evaluate(() => localStorage.getItem('@legacy:token'));
  await page.getByTestId('sessions-end-all').click();
  await page.getByTestId('sessions-end-all-confirm').click();
  await expect(page.getByTestId('login-email')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('@legacy:token'))).toBeNull();
  expect(await meStatus(page, token!)).toBe(401);
});

test('settings on a phone: the cards stack, a wrong file type is refused before upload', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithApi(page, { name: 'Oficina Mecânica Irmãos Rocha Ltda', fullName: 'Carlos Rocha' });
  await openSettings(page);
  await expect(page.getByTestId('session-row')).toHaveCount(1);
  await snap(page, 'settings-pt-light-mobile');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'anim.gif',
    mimeType: 'image/gif',
    buffer: Buffer.from('GIF89a fake'),
  });
  await expect(page.getByTestId('toast-error')).toContainText('Formato de imagem não aceito');
  await expect(page.getByTestId('picture-save')).toHaveCount(0);
});
