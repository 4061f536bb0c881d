import { expect, type Page, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { importList } from './campaigns.test-support';

/**
 * Issue 21: an idle page polls only what can still move. Each page is left open and its `/api/`
 * requests counted; the figures (requests per minute) are printed for the closing note.
 * POLL_WINDOW_SECONDS=60 measures over a whole minute (the default, 12 s, keeps CI short).
 */
const WINDOW_S = Number(process.env.POLL_WINDOW_SECONDS ?? 12);

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

type Api = { token: string; page: Page };
const ALL_DAY = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

async function campaign(
  { page, token }: Api,
  name: string,
  listId: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await page.request.post('/api/v1/campaigns', {
    headers,
    data: { name, channel: 'sms_short', listIds: [listId], content: { text: 'Oi' }, window: ALL_DAY, ...extra },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`/api/v1/campaigns/${id}/start`, { headers });
  expect(started.status(), await started.text()).toBe(200);
  return id;
}

async function read({ page, token }: Api, id: string) {
  const res = await page.request.get(`/api/v1/campaigns/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  return (await res.json()) as { status: string; counts: Record<string, number> };
}

/** `/api/` requests the page makes in WINDOW_S seconds after it settled, as requests per minute. */
async function idleRate(page: Page, path: string, ready: string): Promise<{ count: number; perMinute: number }> {
  await page.goto(path);
  await expect(page.getByTestId(ready).first()).toBeVisible();
  await page.waitForTimeout(1500);
  let count = 0;
  const onRequest = (r: { url(): string }) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) count++;
  };
  page.on('request', onRequest);
  await page.waitForTimeout(WINDOW_S * 1000);
  page.off('request', onRequest);
  return { count, perMinute: Math.round((count * 60) / WINDOW_S) };
}

test('idle pages poll only what can still move: request rates per page', async ({ page }) => {
  test.setTimeout(120_000 + 6 * WINDOW_S * 1000);
  const account = await signInWithApi(page);
  const api = { page, token: account.token };
  const two = await importList(page, account.token, 'Duas', 2);
  const ten = await importList(page, account.token, 'Dez', 10);

  const scheduled = await campaign(api, 'Agendada', two, {
    schedule: new Date(Date.now() + 2 * 3_600_000).toISOString(),
  });
  const paused = await campaign(api, 'Pausada', ten, { maxRate: 1 });
  const pause = await page.request.post(`/api/v1/campaigns/${paused}/pause`, {
    headers: { Authorization: `Bearer ${account.token}` },
  });
  expect(pause.status(), await pause.text()).toBe(200);
  const completed = await campaign(api, 'Concluída', two);
  await expect.poll(async () => (await read(api, scheduled)).status).toBe('SCHEDULED');
  await expect
    .poll(
      async () => {
        const c = await read(api, completed);
        return `${c.status} ${c.counts.sent! + c.counts.submitting! + c.counts.queued!}`;
      },
      { timeout: 30_000 },
    )
    .toBe('COMPLETED 0');
  // The paused one's in-flight receipts have come in (nothing of it is awaiting any more).
  await expect.poll(async () => (await read(api, paused)).counts.sent, { timeout: 15_000 }).toBe(0);

  const rates = {
    scheduled: await idleRate(page, `/campanhas/${scheduled}`, 'campaign-detail'),
    paused: await idleRate(page, `/campanhas/${paused}`, 'campaign-detail'),
    completed: await idleRate(page, `/campanhas/${completed}`, 'campaign-detail'),
    dashboard: await idleRate(page, '/', 'dashboard-chart'),
    list: await idleRate(page, '/campanhas', 'campaign-row'),
  };
  console.log(`idle /api/ requests over ${WINDOW_S} s (per minute): ${JSON.stringify(rates)}`);

  // Nothing can move in a completed campaign with every receipt in: not one request.
  expect(rates.completed.count).toBe(0);
  // A campaign scheduled two hours from now and one paused: nothing polled at a running pace.
  expect(rates.scheduled.perMinute).toBeLessThanOrEqual(2);
  expect(rates.paused.perMinute).toBeLessThanOrEqual(6);
  expect(rates.dashboard.perMinute).toBeLessThanOrEqual(6);
  expect(rates.list.perMinute).toBeLessThanOrEqual(6);
});

/** The e2e server's embedded SMSC (its control API, SMSC_SIMULATOR_CONTROL_PORT in playwright.config.ts). */
const SMSC = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199) + 1000}/__simulator/options`;
const SMSC_DEFAULTS = {
  receiptLatencyMs: 200,
  outcomes: { delivered: 90, undelivered: 6, expired: 2, rejected: 2 },
};

test.describe('late receipts', () => {
  test.afterEach(async ({ request }) => {
    // The SMSC is the whole run's: leave it as every other spec expects it.
    expect((await request.post(SMSC, { data: SMSC_DEFAULTS })).status()).toBe(200);
  });

  test('a receipt that comes hours after the end still moves the row, the counts and the chart', async ({ page }) => {
    test.setTimeout(120_000);
    const account = await signInWithApi(page);
    const api = { page, token: account.token };
    const list = await importList(page, account.token, 'Tardia', 2);
    // The carrier takes both at once and confirms them only 25 s later, both delivered.
    const slow = await page.request.post(SMSC, {
      data: { receiptLatencyMs: 25_000, outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 } },
    });
    expect(slow.status()).toBe(200);
    const id = await campaign(api, 'Recibos tardios', list);
    await expect
      .poll(
        async () => {
          const c = await read(api, id);
          return `${c.status} sent=${c.counts.sent}`;
        },
        { timeout: 20_000 },
      )
      .toBe('COMPLETED sent=2');

    // The page is opened as if two hours had gone by since the end (an SMS waits for a phone that
    // was off): the receipts are still due within their validity, so it keeps looking, slowly.
    await page.clock.install({ time: Date.now() + 2 * 3_600_000 });
    await page.goto(`/campanhas/${id}`);
    const rows = page.getByTestId('recipient-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Enviada' })).toHaveCount(2);
    await expect(page.getByTestId('count-delivered-value')).toHaveText('0');

    // The receipts arrive; within a slow poll (30 s) every panel shows them, then polling stops.
    await expect(page.getByTestId('count-delivered-value')).toHaveText('2', { timeout: 45_000 });
    // The rows follow at once (the last refresh of every panel when polling stops), not a poll later.
    await expect(rows.filter({ hasText: 'Entregue' })).toHaveCount(2, { timeout: 2_000 });
    await expect(page.getByTestId('campaign-timeline').locator('.recharts-area')).not.toHaveCount(0);
    let after = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/')) after++;
    });
    await page.waitForTimeout(35_000);
    expect(after).toBe(0);
  });
});

test('a hidden tab does not poll; it reads again as soon as it shows', async ({ page }) => {
  test.setTimeout(90_000);
  const account = await signInWithApi(page);
  const api = { page, token: account.token };
  const list = await importList(page, account.token, 'Visível', 14);
  // One a second: it runs for about 14 s, polled every 2 s while seen.
  const id = await campaign(api, 'Aba escondida', list, { maxRate: 1 });
  await page.goto(`/campanhas/${id}`);
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'RUNNING');
  let reads = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `/api/v1/campaigns/${id}`) reads++;
  });
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { value, configurable: true });
      Object.defineProperty(document, 'hidden', { value: value === 'hidden', configurable: true });
      // As the browser fires it: at the document, bubbling to the window (where TanStack listens).
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    }, state);

  await expect.poll(() => reads, { timeout: 5_000 }).toBeGreaterThan(0);
  await setVisibility('hidden');
  await page.waitForTimeout(500);
  const hiddenAt = reads;
  await page.waitForTimeout(5_000);
  expect(reads).toBe(hiddenAt);
  await setVisibility('visible');
  // At once, not at the next tick of the 2 s interval.
  await expect.poll(() => reads, { timeout: 500, intervals: [50] }).toBeGreaterThan(hiddenAt);
});
