import { expect, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { giveCredits, importList, openWindowAllDay } from './campaigns.test-support';
import { inEveryLook, snap } from './screens.test-support';

/**
 * Issue 11 in the browser: a list imported, an SMS campaign built through the wizard, watched to
 * completion without reloading, its report and export; pause and resume of a slower one; the
 * dashboard with real figures; the administrators' page. Screenshots in pt/en/cn × light/dark.
 */
test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test('an SMS campaign built in the wizard, watched to completion, reported and exported; the dashboard', async ({
  page,
}) => {
  // The campaign itself ends in ~25 s; the six looks of four pages take ~15 s each on a loaded machine.
  test.setTimeout(180_000);
  const account = await signInWithApi(page);
  await importList(page, account.token, 'Clientes Centro', 4);
  await importList(page, account.token, 'Clientes Zona Sul', 3);

  await page.goto('/');
  await expect(page.getByTestId('dashboard-first-steps')).toBeVisible();
  await page
    .getByRole('link', { name: /criar campanha/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/campanhas\/criar-campanha/);

  // 1. Channel and name.
  await page.getByTestId('wizard-name').fill('Promoção de Natal');
  await page.getByTestId('wizard-channel-sms_short').click();
  await snap(page, 'campaign-wizard-channel');
  await page.getByTestId('wizard-next').click();
  await expect(page).toHaveURL(/rascunho=/);

  // 2. Recipients: two lists, counted live by the server.
  const lists = page.getByTestId('wizard-list');
  await lists.nth(0).click();
  await lists.nth(1).click();
  await expect(page.getByTestId('wizard-recipients')).toHaveText('7');
  await expect(page.getByTestId('wizard-duplicates')).toHaveText('0');
  await snap(page, 'campaign-wizard-recipients');
  await page.getByTestId('wizard-next').click();

  // 3. Content: a variable from the menu, the counter, remove accents.
  await page.getByTestId('campaign-text').fill('Olá ');
  await page.getByTestId('insert-variable').click();
  await page.getByTestId('variable-nome').click();
  await page.getByTestId('campaign-text').press('End');
  await page.getByTestId('campaign-text').pressSequentially(', promoção de Natal!');
  await expect(page.getByTestId('campaign-text')).toHaveValue('Olá {nome}, promoção de Natal!');
  await snap(page, 'campaign-wizard-content');
  await page.getByTestId('wizard-next').click();

  // 4. When: now, the window open all day.
  await openWindowAllDay(page);
  await snap(page, 'campaign-wizard-when');
  await page.getByTestId('wizard-next').click();

  // 5. Review: recipients, parts and credits against the balance (the welcome bonus).
  await expect(page.getByTestId('review-recipients')).toHaveText('7');
  await expect(page.getByTestId('review-needed')).toHaveText('7');
  await expect(page.getByTestId('review-available')).toHaveText('15');
  await snap(page, 'campaign-wizard-review');
  await page.getByTestId('wizard-start').click();

  // The detail page follows it to the end without a reload.
  await expect(page).toHaveURL(/\/campanhas\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'COMPLETED', { timeout: 30_000 });
  await expect(page.getByTestId('count-delivered-value')).toHaveText('7', { timeout: 15_000 });
  await expect(page.getByTestId('credits-used')).toHaveText('7');
  await expect(page.getByTestId('recipient-row')).toHaveCount(7);
  const download = page.waitForEvent('download');
  await page.getByTestId('campaign-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/Promoção de Natal-destinatarios\.csv/);
  await snap(page, 'campaign-detail');

  // The list and the dashboard show the real figures.
  await page.goto('/campanhas');
  await expect(page.getByTestId('campaign-progress-text').first()).toHaveText('7 / 7');
  await page.goto('/');
  await expect(page.getByTestId('dashboard-sent')).toHaveText('7');
  await expect(page.getByTestId('dashboard-delivered')).toHaveText('7');
  await expect(page.getByTestId('dashboard-first-steps')).toBeHidden();

  const shoot = async (look: string) => {
    await page.goto('/');
    await expect(page.getByTestId('dashboard-chart')).toBeVisible();
    await snap(page, `dashboard-${look}`);
    await page.goto('/campanhas');
    await expect(page.getByTestId('campaign-row').first()).toBeVisible();
    await snap(page, `campaigns-${look}`);
    await page.getByTestId('campaign-link').first().click();
    await expect(page.getByTestId('campaign-timeline')).toBeVisible();
    await snap(page, `campaign-detail-${look}`);
    await page.goto('/campanhas/criar-campanha');
    await expect(page.getByTestId('wizard-name')).toBeVisible();
    await snap(page, `campaign-wizard-${look}`);
    await page.goto('/');
    await expect(page.getByTestId('dashboard-chart')).toBeVisible();
  };
  await inEveryLook(page, shoot);
});

test('pause and resume from the list, cancel from the detail; administrators see every campaign', async ({ page }) => {
  test.setTimeout(120_000);
  const account = await signInWithApi(page);
  // At 1 per second, 60 recipients still have most of theirs queued at the cancel, however slow
  // the machine is between the start and the cancel (15, the welcome bonus, could all be sent).
  await giveCredits(page, account.token, { SMSSHORT: 60 });
  const list = await importList(page, account.token, 'Lenta', 60);
  const auth = { Authorization: `Bearer ${account.token}` };
  const created = await page.request.post('/api/v1/campaigns', {
    headers: auth,
    data: {
      name: 'Campanha lenta',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Oi' },
      window: { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' },
      maxRate: 1,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.post(`/api/v1/campaigns/${id}/start`, { headers: auth })).status()).toBe(200);

  await page.goto('/campanhas');
  const row = page.locator(`[data-testid="campaign-row"][data-id="${id}"]`);
  await expect(row.getByTestId('campaign-status')).toHaveAttribute('data-status', 'RUNNING');
  await row.getByTestId('campaign-pause').click();
  await expect(row.getByTestId('campaign-status')).toHaveAttribute('data-status', 'PAUSED');
  await snap(page, 'campaigns-paused');
  await row.getByTestId('campaign-resume').click();
  await expect(row.getByTestId('campaign-status')).toHaveAttribute('data-status', 'RUNNING');
  // The progress moves while we watch, without a reload.
  const before = await row.getByTestId('campaign-progress-text').textContent();
  await expect(row.getByTestId('campaign-progress-text')).not.toHaveText(before ?? '', { timeout: 15_000 });

  await row.getByTestId('campaign-link').click();
  await page.getByTestId('campaign-cancel').click();
  await page.getByTestId('campaign-cancel-confirm').click();
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'CANCELED');
  await expect(page.getByTestId('count-canceled-value')).not.toHaveText('0');
  await snap(page, 'campaign-canceled');

  await signInAsAdmin(page);
  await page.goto('/campanhas-por-usuario');
  await page.getByTestId('campaigns-search').fill('Campanha lenta');
  await expect(page.getByTestId('campaign-row').first()).toContainText(account.email);
  await snap(page, 'admin-campaigns');
});
