import { expect, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { snap, toggleTheme } from './screens.test-support';

test.beforeEach(async ({ page, context }) => {
  await useOwnNetwork(context);
  await signInWithApi(page);
});

test('loads the app, switches language and theme, and both persist after reload', async ({ page }) => {
  await page.goto('/campanhas');
  await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await snap(page, 'foundation-pt-light');

  await page.getByTestId('language-switcher').click();
  await page.getByRole('option', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  await toggleTheme(page);
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await snap(page, 'foundation-en-dark');

  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
  expect(await page.evaluate(() => localStorage.getItem('color-mode'))).toBe('dark');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByTestId('language-switcher').click();
  await page.getByRole('option', { name: '简体中文' }).click();
  await expect(page.getByRole('heading', { name: '营销活动' })).toBeVisible();
  await snap(page, 'foundation-cn-dark');
  await toggleTheme(page);
  await snap(page, 'foundation-cn-light');
});

test('a client-side route survives a direct load and the CSP lets the app and its page chunks run', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.goto('/audios');
  await expect(page.getByRole('heading', { name: 'Áudios' })).toBeVisible();
  // A page that is a chunk of its own (with its own CSS), reached inside the app.
  await page.getByTestId('nav-lists').click();
  await expect(page.getByRole('heading', { name: 'Listas' })).toBeVisible();
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});

test('while a page’s code is on its way, the shell stays and the content area shows a spinner', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/SettingsPage-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/campanhas');
  await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible();
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Configurações' }).click();
  await expect(page.getByTestId('page-chunk-loader')).toBeVisible();
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Configurações' })).toBeVisible();
  await expect(page.getByTestId('page-chunk-loader')).toHaveCount(0);
});
