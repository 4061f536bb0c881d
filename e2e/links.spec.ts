import { expect, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth-helpers';
import { snap, switchLanguage, toggleTheme } from './support';

/**
 * Issue 12 in the browser: a rotating link created through the form with two page targets (the
 * app itself, so no internet is needed), opened in the browser and landing on each in turn,
 * its clicks in the stats, then paused (the friendly page). Screenshots in pt/en/cn × light/dark.
 */
test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test('a rotating link created in the form spreads visits across its targets and shows them in its stats', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signInWithApi(page);
  await page.goto('/link-rotativo');
  await expect(page.getByText('Nenhum link rotativo ainda')).toBeVisible();

  await page.getByTestId('new-link').click();
  const slug = `vendas-${Date.now().toString(36)}`;
  await page.getByTestId('link-name').fill('Vendas Natal');
  await expect(page.getByTestId('link-slug')).toHaveValue('vendas-natal');
  await page.getByTestId('link-slug').fill(slug);
  const targets = page.getByTestId('link-target');
  await page.getByTestId('add-target').click();
  for (const [i, name] of ['ana', 'bia'].entries()) {
    const target = targets.nth(i);
    await target.getByRole('textbox', { name: /^Tipo$/ }).click();
    await page.getByRole('option', { name: 'Página (URL)' }).click();
    await target.getByTestId('target-value').fill(`${baseURL}/?de=${name}`);
    await target.getByTestId('target-label').fill(name === 'ana' ? 'Ana' : 'Bia');
  }
  await snap(page, 'links-form');
  await page.getByTestId('link-save').click();
  await expect(page.getByTestId('link-row')).toHaveCount(1);
  await expect(page.getByTestId('link-address')).toHaveText(`${baseURL}/l/${slug}`);

  // Each visit lands on the next target.
  const landed: string[] = [];
  for (let i = 0; i < 4; i++) {
    const visit = await page.context().newPage();
    await visit.goto(`/l/${slug}`);
    landed.push(new URL(visit.url()).searchParams.get('de') ?? '');
    await visit.close();
  }
  expect(landed).toEqual(['ana', 'bia', 'ana', 'bia']);

  // The clicks reach the list and the stats (written within a fraction of a second).
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId('link-clicks').textContent();
      },
      { timeout: 15_000 },
    )
    .toBe('4');
  await page.getByTestId('link-menu').click();
  await page.getByTestId('action-stats').click();
  await expect(page.getByTestId('link-stats-clicks')).toHaveText('4');
  await expect(page.getByTestId('link-stats').getByText('Ana')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('link-export').click();
  expect((await download).suggestedFilename()).toBe(`cliques-${slug}.csv`);
  await page.keyboard.press('Escape');

  const shoot = async (lang: string, theme: string) => {
    await page.goto('/link-rotativo');
    await expect(page.getByTestId('link-row')).toHaveCount(1);
    await snap(page, `links-${lang}-${theme}`);
    await page.getByTestId('link-menu').click();
    await page.getByTestId('action-stats').click();
    await expect(page.getByTestId('link-stats-clicks')).toHaveText('4');
    await snap(page, `links-stats-${lang}-${theme}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('new-link').click();
    await expect(page.getByTestId('link-name')).toBeVisible();
    await snap(page, `links-form-${lang}-${theme}`);
    await page.keyboard.press('Escape');
  };
  for (const [lang, name] of [
    ['pt', 'Português'],
    ['en', 'English'],
    ['cn', '简体中文'],
  ] as const) {
    if (lang !== 'pt') await switchLanguage(page, name);
    await shoot(lang, 'light');
    await toggleTheme(page);
    await shoot(lang, 'dark');
    await toggleTheme(page);
  }
  await switchLanguage(page, 'Português');

  await page.goto('/link-rotativo');
  await page.getByTestId('link-menu').click();
  await page.getByTestId('action-pause').click();
  await expect(page.getByTestId('link-status')).toHaveText('Pausado');
  // Paused: the address shows the friendly page, in the visitor's language (this browser asks for English).
  const visit = await page.context().newPage();
  const answer = await visit.goto(`/l/${slug}`);
  expect(answer?.status()).toBe(404);
  await expect(visit.getByRole('heading', { name: 'Link not found' })).toBeVisible();
  const inPortuguese = await page.request.get(`/l/${slug}`, {
    headers: { 'accept-language': 'pt-BR' },
    maxRedirects: 0,
  });
  expect(await inPortuguese.text()).toContain('Link não encontrado');
  await visit.close();

  // The administrators' page: every user's links; one is disabled with a reason (audited).
  await signInAsAdmin(page);
  await page.goto('/links');
  await page.getByPlaceholder('Buscar por link, endereço').fill(slug);
  const row = page.getByTestId('admin-link-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Vendas Natal');
  for (const [lang, name] of [
    ['pt', 'Português'],
    ['en', 'English'],
    ['cn', '简体中文'],
  ] as const) {
    if (lang !== 'pt') await switchLanguage(page, name);
    await expect(row).toHaveCount(1);
    await snap(page, `admin-links-${lang}-light`);
    await toggleTheme(page);
    await snap(page, `admin-links-${lang}-dark`);
    await toggleTheme(page);
  }
  await switchLanguage(page, 'Português');
  await row.getByTestId('admin-link-disable').click();
  await page.getByTestId('disable-reason').fill('Golpe denunciado por clientes');
  await page.getByTestId('confirm-disable').click();
  await expect(row.getByTestId('admin-link-status')).toHaveText('Desativado pelo administrador');
  await expect(row).toContainText('Golpe denunciado por clientes');
});
