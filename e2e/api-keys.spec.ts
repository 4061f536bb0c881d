import { expect, type Page, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { closeOnboarding, inEveryLook, snap } from './screens.test-support';

test.use({ viewport: { width: 1280, height: 900 } });

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

/** Opens /configuracoes once the page signInWithApi left on `/` is idle (see settings.spec.ts). */
async function openSettings(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
  await page.waitForLoadState('networkidle');
  await page.goto('/configuracoes');
  // The machine may be busy: the page first, then the onboarding popover that comes with it.
  await expect(page.getByTestId('settings-page')).toBeVisible({ timeout: 30_000 });
  await closeOnboarding(page);
  await page.getByTestId('settings-api-keys').scrollIntoViewIfNeeded();
}

/** Closes the avatar menu a theme switch may leave open (it would take the next click). */
async function closeMenus(page: Page): Promise<void> {
  const toggle = page.getByTestId('theme-toggle');
  if (await toggle.isVisible()) await page.keyboard.press('Escape');
  await expect(toggle).toBeHidden();
}

/** GET /api/v1/campaigns with an API key, as the customer's system would call it. */
const campaignsWith = (page: Page, key: string) =>
  page.request.get('/api/v1/campaigns', { headers: { Authorization: `Bearer ${key}` } });

test('API keys: create one with scopes, copy it once, use it, see it used, revoke it', async ({ page, context }) => {
  test.setTimeout(480_000); // six looks of two screens, on a busy 2-core machine
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInWithApi(page, { name: 'Loja Integrada', fullName: 'Rita Souza' });
  await openSettings(page);
  const card = page.getByTestId('settings-api-keys');
  await expect(card.getByTestId('api-keys-empty')).toHaveText('Nenhuma chave criada ainda.');

  // Nothing chosen: both fields say why, nothing is created.
  await card.getByTestId('api-key-new').click();
  const modal = page.getByRole('dialog');
  await modal.getByTestId('api-key-submit').click();
  await expect(modal).toContainText('Dê um nome à chave, com até 80 caracteres.');
  await expect(modal).toContainText('Escolha ao menos uma permissão para a chave.');

  // The form in every language and theme (opened afresh in each: the dialog covers the switches).
  await modal.getByRole('button', { name: 'Cancelar' }).click();
  await inEveryLook(page, async (look) => {
    await closeMenus(page);
    await card.getByTestId('api-key-new').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.getByTestId('api-key-name').fill('ERP da loja');
    await page.getByTestId('api-key-scope-campaigns_read').check();
    await page.getByTestId('api-key-scope-messages_read').check();
    await snap(page, `api-keys-create-${look}`);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  // Create: the key is shown once, with a warning and a copy button.
  await card.getByTestId('api-key-new').click();
  await page.getByTestId('api-key-name').fill('ERP da loja');
  await page.getByTestId('api-key-scope-campaigns_read').check();
  await page.getByTestId('api-key-scope-messages_read').check();
  await page.getByTestId('api-key-submit').click();
  const created = page.getByTestId('api-key-created');
  await expect(created).toContainText('não será mostrada de novo');
  const key = (await page.getByTestId('api-key-value').textContent())?.trim() ?? '';
  expect(key).toMatch(/^ecoa_[A-Za-z0-9_-]{43}$/);
  await page.getByTestId('api-key-copy').click();
  await expect(page.getByTestId('api-key-copy')).toHaveText('Copiada');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await snap(page, 'api-keys-created-pt-light');
  await page.getByTestId('api-key-done').click();
  await expect(page.getByRole('dialog')).toBeHidden();

  // The list: name, the key's start only, scopes, never used yet.
  const row = card.getByTestId('api-key-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('api-key-row-name')).toHaveText('ERP da loja');
  await expect(row.getByTestId('api-key-row-prefix')).toHaveText(`${key.slice(0, 12)}…`);
  await expect(row).toContainText('messages:read');
  await expect(row).toContainText('campaigns:read');
  await expect(row.getByTestId('api-key-row-last-used')).toHaveText('Nunca usada');
  await expect(page.locator('body')).not.toContainText(key.slice(12));

  // The customer's system uses it: its scope passes, a session-only route refuses it.
  const used = await campaignsWith(page, key);
  expect(used.status(), await used.text()).toBe(200);
  expect(used.headers()['ratelimit-limit']).toBe('50');
  const keys = await page.request.get('/api/v1/api-keys', { headers: { Authorization: `Bearer ${key}` } });
  expect(keys.status()).toBe(403);
  expect(((await keys.json()) as { code: string }).code).toBe('API_KEY_NOT_ALLOWED');

  await page.reload();
  await page.getByTestId('settings-api-keys').scrollIntoViewIfNeeded();
  await expect(row.getByTestId('api-key-row-last-used')).not.toHaveText('Nunca usada');
  await inEveryLook(page, async (look) => {
    await closeMenus(page);
    await expect(row).toHaveCount(1);
    await snap(page, `api-keys-list-${look}`);
  });

  // Revoke, after a confirmation: gone from the list, refused at once.
  await row.getByTestId('api-key-revoke').click();
  await expect(page.getByRole('dialog')).toContainText('ERP da loja');
  await page.getByTestId('api-key-revoke-confirm').click();
  await expect(card.getByTestId('api-keys-empty')).toBeVisible();
  expect((await campaignsWith(page, key)).status()).toBe(401);
});

test("an administrator sets a user's API rate: the user's keys get that bucket", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const userContext = await browser.newContext();
  await useOwnNetwork(userContext);
  const userPage = await userContext.newPage();
  const account = await signInWithApi(userPage, { name: `Atacado ${Date.now().toString(36)}` });
  const created = await userPage.request.post('/api/v1/api-keys', {
    data: { name: 'ERP', scopes: ['campaigns:read'] },
    headers: { Authorization: `Bearer ${account.token}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { key } = (await created.json()) as { key: string };

  await signInAsAdmin(page);
  await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
  await page.goto('/usuarios');
  await page.getByTestId('users-search').fill(account.email);
  await page.getByText(account.email).first().click();
  const drawer = page.getByTestId('user-drawer');
  const rate = drawer.getByTestId('user-api-rate');
  await expect(rate).toHaveValue('');
  await rate.fill('2');
  await drawer.getByTestId('user-save').click();
  await expect(drawer.getByTestId('history-change').first()).toContainText('Limite da API: padrão → 2/s');
  await rate.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await snap(page, 'api-keys-admin-rate-pt-light');

  const limited = await userPage.request.get('/api/v1/campaigns', { headers: { Authorization: `Bearer ${key}` } });
  expect(limited.status()).toBe(200);
  expect(limited.headers()['ratelimit-limit']).toBe('10');
  await userContext.close();
});
