import { expect, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { importList } from './campaigns.test-support';
import { closeOnboarding, inEveryLook, snap } from './screens.test-support';

/** Issue 22: the campaign page's rough edges (the failure reasons as a table). */

/** The e2e server's embedded SMSC (its control API, SMSC_SIMULATOR_CONTROL_PORT in playwright.config.ts). */
const SMSC = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199) + 1000}/__simulator/options`;
const SMSC_DEFAULTS = {
  receiptLatencyMs: 200,
  outcomes: { delivered: 90, undelivered: 6, expired: 2, rejected: 2 },
};
const ALL_DAY = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});
test.afterEach(async ({ request }) => {
  // The SMSC is the whole run's: leave it as every other spec expects it.
  expect((await request.post(SMSC, { data: SMSC_DEFAULTS })).status()).toBe(200);
});

test('the failure reasons are a table: reason, count and share of the failures, largest first', async ({ page }) => {
  test.setTimeout(120_000);
  const account = await signInWithApi(page);
  const headers = { Authorization: `Bearer ${account.token}` };
  const list = await importList(page, account.token, 'Falhas', 14);
  // Most messages fail, for several reasons.
  const failing = await page.request.post(SMSC, {
    data: { receiptLatencyMs: 100, outcomes: { delivered: 1, undelivered: 4, expired: 2, rejected: 1 } },
  });
  expect(failing.status()).toBe(200);
  const created = await page.request.post('/api/v1/campaigns', {
    headers,
    data: { name: 'Com falhas', channel: 'sms_short', listIds: [list], content: { text: 'Oi' }, window: ALL_DAY },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`/api/v1/campaigns/${id}/start`, { headers });
  expect(started.status(), await started.text()).toBe(200);
  type Read = { status: string; counts: Record<string, number>; reasons: { reason: string; count: number }[] };
  const read = async () => (await (await page.request.get(`/api/v1/campaigns/${id}`, { headers })).json()) as Read;
  // Every outcome in: nothing left queued, being handed over or waiting for its receipt.
  await expect
    .poll(
      async () => {
        const c = await read();
        return `${c.status} waiting=${c.counts.queued! + c.counts.submitting! + c.counts.sent!}`;
      },
      { timeout: 60_000 },
    )
    .toBe('COMPLETED waiting=0');
  const { reasons } = await read();
  expect(reasons.length).toBeGreaterThanOrEqual(2);
  const failures = reasons.reduce((n, r) => n + r.count, 0);

  await page.goto(`/campanhas/${id}`);
  const table = page.getByTestId('campaign-reason');
  await expect(table.locator('th')).toHaveText(['Motivo', 'Quantidade', '% das falhas']);
  const rows = table.getByTestId('campaign-reason-row');
  await expect(rows).toHaveCount(reasons.length);
  const counts = (await table.getByTestId('campaign-reason-count').allTextContents()).map(Number);
  // Largest first, and the counts are the server's, each in its own row.
  expect(counts).toEqual(reasons.map((r) => r.count).sort((a, b) => b - a));
  const percent = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 });
  await expect(table.getByTestId('campaign-reason-share')).toHaveText(counts.map((n) => percent.format(n / failures)));

  const card = page.getByTestId('campaign-reasons');
  await card.scrollIntoViewIfNeeded();
  await inEveryLook(page, async (look) => {
    await expect(table.locator('th').last()).toHaveText(/^(% das falhas|% of failures|占失败的百分比)$/);
    await snap(page, `campaign-detail-reasons-${look}`);
  });
});

test('the wizard’s review: "2 partes" when every message takes 2, the first recipient’s message, what removing accents saves', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const account = await signInWithApi(page);
  const headers = { Authorization: `Bearer ${account.token}` };
  const list = await importList(page, account.token, 'Acentos', 3);
  // 87 characters with "á", "ç", "ã": 2 parts each in UCS-2, 1 in GSM-7 without the accents.
  const text = 'Olá {nome}, sua promoção de dezembro chegou: descontos de até 50% nas lojas participantes!';
  const created = await page.request.post('/api/v1/campaigns', {
    headers,
    data: { name: 'Revisão', channel: 'sms_short', listIds: [list], content: { text }, window: ALL_DAY },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/campanhas/criar-campanha?rascunho=${id}`);
  await closeOnboarding(page);
  await expect(page.getByTestId('wizard-name')).toHaveValue('Revisão');
  for (let step = 0; step < 4; step++) await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('review-recipients')).toHaveText('3');
  await expect(page.getByTestId('review-parts')).toHaveText('6');
  await expect(page.getByTestId('review-parts-each')).toHaveText('Cada mensagem terá 2 partes.');
  await expect(page.getByTestId('review-without-accents')).toHaveText('Sem acentos: 1 parte — economiza 3 créditos.');
  // One recipient's message as the phone shows it: the variable filled with that recipient's name.
  const example = page.getByTestId('review-example-text');
  await expect(example).toHaveText(
    /^Olá Cliente [123], sua promoção de dezembro chegou: descontos de até 50% nas lojas participantes!$/,
  );
  await expect(page.getByTestId('review-example')).toContainText(/\(11\) 9\d{4}-\d{4}/);
  await inEveryLook(page, async (look) => {
    await expect(page.getByTestId('review-example-text')).toBeVisible();
    await snap(page, `campaign-wizard-review-example-${look}`);
  });
});
