import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { importList, openWindowAllDay } from './campaigns.test-support';
import { inEveryLook, snap } from './screens.test-support';

/**
 * Issue 12's tracked links in the browser: "insert link" in the wizard's SMS text puts a
 * rotating link in a campaign; each recipient's own address (from the export) is opened, lands
 * on the link's target, and the click shows in the report (count, rate, who clicked). The
 * administrators turn the campaign's links off: the address then shows the friendly page.
 */
test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test('a campaign SMS carries a tracked rotating link whose clicks show in its report', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const account = await signInWithApi(page);
  const auth = { Authorization: `Bearer ${account.token}` };
  const slug = `loja-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/v1/rotating-links', {
    headers: auth,
    data: { name: 'Loja Centro', slug, targets: [{ kind: 'url', url: `${baseURL}/?de=loja`, label: 'Loja' }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  await importList(page, account.token, 'Clientes Link', 3);

  await page.goto('/campanhas/criar-campanha');
  await page.getByTestId('wizard-name').fill('Oferta com link');
  await page.getByTestId('wizard-channel-sms_short').click();
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-list').first().click();
  await expect(page.getByTestId('wizard-recipients')).toHaveText('3');
  await page.getByTestId('wizard-next').click();

  // "Insert link": the rotating link becomes {link}, counted at a tracked address's length.
  await page.getByTestId('campaign-text').fill('Oferta da semana:');
  await page.getByTestId('insert-link').click();
  await page.getByTestId('tracked-link-rotating').click();
  await page.getByRole('option', { name: new RegExp(`Loja Centro \\(/l/${slug}\\)`) }).click();
  await page.getByTestId('tracked-link-insert').click();
  await expect(page.getByTestId('campaign-text')).toHaveValue('Oferta da semana: {link}');
  await expect(page.getByTestId('tracked-link-chosen')).toHaveText('Loja Centro');
  const linkLength = `${baseURL}/l/_`.length + 10;
  await expect(page.getByTestId('sms-characters')).toContainText(String('Oferta da semana: '.length + linkLength));
  await inEveryLook(page, (look) => snap(page, `campaign-wizard-link-${look}`));
  await page.getByTestId('wizard-next').click();
  await openWindowAllDay(page);
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('review-recipients')).toHaveText('3');
  await page.getByTestId('wizard-start').click();
  await expect(page).toHaveURL(/\/campanhas\/[0-9a-f-]{36}$/);
  const campaignUrl = page.url();
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'COMPLETED', { timeout: 30_000 });
  await expect(page.getByTestId('campaign-clicks')).toBeVisible();

  // Each recipient's own address is in the export; one of them is opened.
  const download = page.waitForEvent('download');
  await page.getByTestId('campaign-export').click();
  const csv = fs
    .readFileSync((await (await download).path())!, 'utf8')
    .replace(/^\ufeff/, '')
    .trim()
    .split('\r\n');
  const column = csv[0]!.split(';').indexOf('link');
  const addresses = csv.slice(1).map((line) => line.split(';')[column]!);
  expect(addresses).toHaveLength(3);
  expect(new Set(addresses).size).toBe(3);
  for (const address of addresses) expect(address).toMatch(new RegExp(`^${baseURL}/l/_[0-9A-Za-z]{10}$`));
  const visit = await page.context().newPage();
  await visit.goto(addresses[0]!);
  expect(new URL(visit.url()).searchParams.get('de')).toBe('loja');
  await visit.close();

  // The report: one click, one recipient among those the carrier took (the simulated carrier
  // fails a seeded share of messages: 1 of 3 is 33.3%, 1 of 2 is 50%), and who it was.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId('clicks-clicks').textContent();
      },
      { timeout: 15_000 },
    )
    .toBe('1');
  await expect(page.getByTestId('clicks-clickers')).toHaveText('1');
  const campaign = (await (
    await page.request.get(`/api/v1/campaigns/${campaignUrl.split('/').pop()}`, { headers: auth })
  ).json()) as {
    counts: { delivered: number; sent: number; unknown: number };
  };
  const reached = campaign.counts.delivered + campaign.counts.sent + campaign.counts.unknown;
  expect(reached).toBeGreaterThanOrEqual(1);
  const rate = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 }).format(1 / reached);
  await expect(page.getByTestId('clicks-ctr')).toHaveText(rate);
  await page.getByTestId('recipients-only-clicked').click();
  await expect(page.getByTestId('recipient-row')).toHaveCount(1);
  await expect(page.getByTestId('recipient-clicks')).toHaveText('1');
  await inEveryLook(page, async (look) => {
    await page.goto(campaignUrl);
    await expect(page.getByTestId('clicks-clicks')).toHaveText('1');
    await snap(page, `campaign-detail-clicks-${look}`);
  });

  // An administrator turns the campaign's tracked links off: the address shows the friendly page.
  await signInAsAdmin(page);
  await page.goto('/links');
  await page.getByTestId('admin-links-tracked').click();
  await page.getByPlaceholder('Buscar por campanha, usuário ou e-mail').fill(account.email);
  const row = page.getByTestId('admin-tracked-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Oferta com link');
  await expect(row).toContainText('Loja Centro');
  await inEveryLook(page, async (look) => {
    await expect(row).toHaveCount(1);
    await snap(page, `admin-tracked-links-${look}`);
  });
  await row.getByTestId('admin-link-disable').click();
  await page.getByTestId('disable-reason').fill('Mensagem enganosa');
  await page.getByTestId('confirm-disable').click();
  await expect(row.getByTestId('admin-link-status')).toHaveText('Desativado pelo administrador');
  const blocked = await page.context().newPage();
  expect((await blocked.goto(addresses[1]!))?.status()).toBe(404);
  await expect(blocked.getByRole('heading', { name: 'Link not found' })).toBeVisible();
  await blocked.close();
});
