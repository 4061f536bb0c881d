import { expect, type Page, test } from '@playwright/test';
import { createAccount, signInAs, signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { snap, switchLanguage, toggleTheme } from './screens.test-support';

test.use({ viewport: { width: 1440, height: 900 } });

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

/** Keeps the welcome modal out of the way (it is not what these tests are about). */
async function dismissWelcome(page: Page) {
  await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
}

const marker = () => `E2E${Math.random().toString(36).slice(2, 8).toUpperCase()}`;

/** Opens /usuarios and narrows the table to one search. */
async function searchUsers(page: Page, text: string) {
  await page.goto('/usuarios');
  await page.getByTestId('users-search').fill(text);
}

test('an administrator finds a user, edits the price table, sees the audit, deactivates them', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000); // two browsers, two sign-ins, a deactivation
  const tag = marker();
  const cnpj = '11444777000161';
  const account = await createAccount(page.request, {
    name: `Padaria ${tag}`,
    fullName: 'Maria da Silva',
    mobilePhone: '11987654321',
    cnpj,
  });

  // The user is signed in on their own browser meanwhile.
  const userContext = await browser.newContext();
  await useOwnNetwork(userContext);
  const userPage = await userContext.newPage();
  await signInAs(userPage, account.email);
  await dismissWelcome(userPage);
  await userPage.goto('/');
  await expect(userPage.getByTestId('user-menu')).toBeVisible();

  await signInAsAdmin(page);
  await dismissWelcome(page);
  await searchUsers(page, tag.toLowerCase());
  await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(1);
  const id = ((await page.locator('[data-testid^="user-row-"]').getAttribute('data-testid')) ?? '').slice(9);
  const row = page.getByTestId(`user-row-${id}`);
  await expect(row).toContainText(`Padaria ${tag}`);
  await expect(row).toContainText('Maria da Silva');
  await expect(row).toContainText(account.email);
  await expect(row).toContainText('11.444.777/0001-61');
  await expect(row).toContainText('(11) 98765-4321');
  await expect(row.getByTestId('user-active')).toHaveText('Ativo');
  await expect(row.getByTestId('user-balance')).toHaveText('R$\u00a00,00');
  await expect(page.getByTestId('users-total')).toHaveText('Total: 1 usuário(s)');

  // The CNPJ with its mask finds the same user.
  await page.getByTestId('users-search').fill('11.444.777/0001-61');
  await expect(page.getByTestId('users-search')).toHaveValue('11.444.777/0001-61');
  await expect(row).toBeVisible();

  await row.click();
  const drawer = page.getByTestId('user-drawer');
  await expect(drawer.getByTestId('user-drawer-header')).toContainText(`Padaria ${tag}`);
  await expect(drawer.getByTestId('user-history-empty')).toBeVisible();
  await expect(drawer.getByTestId('user-save')).toBeDisabled();
  await drawer.getByTestId('price-smsShort').fill('0,0875');
  await expect(drawer.getByTestId('price-smsShort')).toHaveValue('R$ 0,0875');
  await drawer.getByTestId('user-save').click();
  await expect(page.getByText('Usuário atualizado.')).toBeVisible();
  const changes = drawer.getByTestId('history-change');
  await expect(changes).toHaveText(['Preço SMS Short: R$\u00a00,00 → R$\u00a00,0875']);
  await expect(drawer.getByTestId('history-entry')).toContainText('admin@ecoa.test');
  await drawer.getByTestId('user-history').scrollIntoViewIfNeeded();
  await snap(page, 'admin-users-drawer-history-pt-light');
  // The user's own session sees the new price at once.
  const me = await userPage.request.get('/api/me', {
    headers: { Authorization: `Bearer ${await userPage.evaluate(() => localStorage.getItem('@legacy:token'))}` },
  });
  expect((await me.json()).priceTable.smsShort).toBe(0.0875);

  // Deactivation asks first, then ends every session of the user.
  await drawer.getByTestId('user-active-switch').click({ force: true });
  await drawer.getByTestId('user-save').click();
  await page.getByTestId('confirm-deactivate').click();
  await expect(changes.first()).toHaveText('Ativo: Sim → Não');
  await expect(drawer.getByTestId('user-drawer-header')).toContainText('Inativo');
  await page.keyboard.press('Escape');
  await expect(row.getByTestId('user-active')).toHaveText('Inativo');

  // The user's open page: the next API call answers 401 and the app goes back to the login.
  await userPage.getByTestId('nav-lists').click();
  await expect(userPage.getByTestId('login-email')).toBeVisible();
  await userPage.getByTestId('login-email').fill(account.email);
  const refused = userPage.waitForResponse((r) => r.url().endsWith('/api/auth/request-code'));
  await userPage.getByTestId('login-submit').click();
  const response = await refused;
  expect(response.status()).toBe(403);
  expect((await response.json()).message).toBe('Usuario desativado.');
  await expect(userPage.getByText('Esta conta não está ativa.')).toBeVisible();
  await userContext.close();
});

test('a regular user opening /usuarios is sent to /', async ({ page }) => {
  const { token } = await signInWithApi(page);
  await dismissWelcome(page);
  await page.goto('/usuarios');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('users-table')).toHaveCount(0);
  // And the API says no as well.
  const api = await page.request.get('/api/v1/admin/users', { headers: { Authorization: `Bearer ${token}` } });
  expect(api.status()).toBe(403);
});

test('screenshots: the table and the drawer in pt light, en dark, cn dark and cn light', async ({ page }) => {
  // Four looks of two screens, each drawer with its money and history: ~45 s on a loaded machine.
  test.setTimeout(90_000);
  const tag = marker();
  for (const [name, fullName] of [
    ['Padaria Pão Quente Ltda', 'Maria da Silva'],
    ['Oficina Mecânica Irmãos Souza', 'João Pedro Souza'],
    ['Mercado Bom Preço', 'Ana Beatriz Oliveira'],
  ] as const) {
    await createAccount(page.request, { name: `${name} ${tag}`, fullName });
  }
  await signInAsAdmin(page);
  await dismissWelcome(page);
  await searchUsers(page, tag);
  await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(3);

  const shots = async (label: string) => {
    await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(3);
    await snap(page, `admin-users-table-${label}`);
    await page.locator('[data-testid^="user-row-"]').first().click();
    await expect(page.getByTestId('user-form')).toBeVisible();
    await expect(page.getByTestId('admin-user-credits')).toBeVisible();
    await snap(page, `admin-users-drawer-${label}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('user-form')).toHaveCount(0);
  };

  await shots('pt-light');
  await switchLanguage(page, 'English');
  await toggleTheme(page);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await shots('en-dark');
  await switchLanguage(page, '简体中文');
  await expect(page.getByRole('heading', { name: '用户' })).toBeVisible();
  await shots('cn-dark');
  await toggleTheme(page);
  await shots('cn-light');
});
