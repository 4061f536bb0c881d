import { expect, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth-helpers';
import { snap, toggleTheme } from './support';

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

test('a client-side route survives a direct load and the CSP lets the app run', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  await page.goto('/audios');
  await expect(page.getByRole('heading', { name: 'Áudios' })).toBeVisible();
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});
