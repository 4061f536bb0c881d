import { expect, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { inEveryLook, snap } from './screens.test-support';

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
  const account = await signInWithApi(page);
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
  await expect(page.getByTestId('link-stats-chart')).toBeVisible();
  await page.getByTestId('link-stats-bucket').getByText('Por hora').click();
  await expect(page.getByTestId('link-stats-chart')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('link-export').click();
  expect((await download).suggestedFilename()).toBe(`cliques-${slug}.csv`);
  await page.keyboard.press('Escape');

  // The extras: Bia only on weekdays 08:00–18:00, a fallback page, a Meta Pixel (checked as typed).
  await page.getByTestId('link-menu').click();
  await page.getByTestId('action-edit').click();
  await targets.nth(1).getByTestId('target-hours-toggle').click();
  await expect(targets.nth(1).getByTestId('target-hours')).toBeVisible();
  await page.getByTestId('link-fallback-section').click();
  // The panel opens with an animation inside a scrolling modal: a click that lands mid-way does
  // not open the select, so open it until its option shows.
  await expect(async () => {
    await page.getByTestId('link-fallback-kind').scrollIntoViewIfNeeded();
    await page.getByTestId('link-fallback-kind').click();
    await page.getByRole('option', { name: 'Página (URL)' }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByTestId('link-fallback-value').fill(`${baseURL}/?de=reserva`);
  await page.getByTestId('link-pixels-section').click();
  await page.getByTestId('link-pixel-meta').fill('pixel-12');
  await expect(page.getByText('O ID do Pixel da Meta tem só números (5 a 20).')).toBeVisible();
  await page.getByTestId('link-pixel-meta').fill('123456789012');
  await page.getByTestId('link-save').click();
  await expect(page.getByText('Link salvo.')).toBeVisible();
  const saved = (await (
    await page.request.get('/api/v1/rotating-links', { headers: { Authorization: `Bearer ${account.token}` } })
  ).json()) as { items: { targets: { hours: unknown }[]; fallback: unknown; pixels: unknown }[] };
  expect(saved.items[0]!.targets.map((t) => t.hours)).toEqual([
    null,
    { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' },
  ]);
  expect(saved.items[0]!.fallback).toEqual({ kind: 'url', url: `${baseURL}/?de=reserva` });
  expect(saved.items[0]!.pixels).toEqual({ meta: '123456789012' });

  // The QR code of the address, as PNG and SVG.
  await page.getByTestId('link-menu').click();
  await page.getByTestId('action-qr').click();
  await expect(page.getByTestId('link-qr').locator('svg')).toBeVisible();
  for (const kind of ['png', 'svg']) {
    const file = page.waitForEvent('download');
    await page.getByTestId(`qr-${kind}`).click();
    expect((await file).suggestedFilename()).toBe(`${slug}.${kind}`);
  }
  await page.keyboard.press('Escape');

  const shoot = async (look: string) => {
    await page.goto('/link-rotativo');
    await expect(page.getByTestId('link-row')).toHaveCount(1);
    await snap(page, `links-${look}`);
    await page.getByTestId('link-menu').click();
    await page.getByTestId('action-stats').click();
    await expect(page.getByTestId('link-stats-clicks')).toHaveText('4');
    await snap(page, `links-stats-${look}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('link-menu').click();
    await page.getByTestId('action-edit').click();
    // The extras at the bottom of the form: opening hours, fallback, pixels.
    await page.getByTestId('link-pixel-meta').scrollIntoViewIfNeeded();
    await snap(page, `links-form-${look}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('link-menu').click();
    await page.getByTestId('action-qr').click();
    await expect(page.getByTestId('link-qr').locator('svg')).toBeVisible();
    await snap(page, `links-qr-${look}`);
    await page.keyboard.press('Escape');
  };
  await inEveryLook(page, shoot);

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
  await inEveryLook(page, async (look) => {
    await expect(row).toHaveCount(1);
    await snap(page, `admin-links-${look}`);
  });
  await row.getByTestId('admin-link-disable').click();
  await page.getByTestId('disable-reason').fill('Golpe denunciado por clientes');
  await page.getByTestId('confirm-disable').click();
  await expect(row.getByTestId('admin-link-status')).toHaveText('Desativado pelo administrador');
  await expect(row).toContainText('Golpe denunciado por clientes');
});
