import { STORAGE_KEYS } from '@ecoa/shared';
import { expect, type Page, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { closeOnboarding, inEveryLook, snap } from './screens.test-support';

/**
 * Issue 23, the replies inbox: a campaign's recipients answer through the embedded SMSC (its
 * control API's MO), the user reads the replies in /respostas (name from the list, campaign link,
 * the opt-out marked, a reply to an API message naming the API), marks one handled, filters, and
 * answers it by SMS.
 */

/** The e2e server's embedded SMSC (its control API, SMSC_SIMULATOR_CONTROL_PORT in playwright.config.ts). */
const SMSC = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3199) + 1000}/__simulator`;
const ALL_DAY = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };
const mobile = () => `119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

/** A list of the two numbers, an SMS campaign to it, run to the end. */
async function campaignTo(page: Page, token: string, rows: string[]): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const list = await page.request.post('/api/v1/lists', {
    headers,
    multipart: {
      name: 'Clientes',
      file: { name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(`telefone;nome\n${rows.join('\n')}\n`) },
    },
  });
  expect(list.status(), await list.text()).toBe(201);
  const listId = ((await list.json()) as { id: string }).id;
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/lists/${listId}`, { headers })).json()) as { status: string }).status,
      {
        timeout: 30_000,
      },
    )
    .toBe('ready');
  const created = await page.request.post('/api/v1/campaigns', {
    headers,
    data: {
      name: 'Black Friday',
      channel: 'sms_short',
      listIds: [listId],
      content: { text: 'Oferta!' },
      window: ALL_DAY,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.post(`/api/v1/campaigns/${id}/start`, { headers })).status()).toBe(200);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/campaigns/${id}`, { headers })).json()) as { status: string }).status,
      {
        timeout: 60_000,
      },
    )
    .toBe('COMPLETED');
  return id;
}

/** One SMS sent through the sending API with a key of the account's (`messages:send`), handed to the SMSC. */
async function apiMessageTo(page: Page, token: string, to: string, externalId: string): Promise<void> {
  const created = await page.request.post('/api/v1/api-keys', {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'ERP', scopes: ['messages:send', 'messages:read'] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const headers = { Authorization: `Bearer ${((await created.json()) as { key: string }).key}` };
  const sent = await page.request.post('/api/v1/messages', {
    headers,
    // Any hour: without a window the message waits for the campaigns' default (09:00–21:00).
    data: { channel: 'sms_short', to, text: 'Seu pedido saiu para entrega.', externalId, window: ALL_DAY },
  });
  expect(sent.status(), await sent.text()).toBe(202);
  const { id } = (await sent.json()) as { id: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/messages/${id}`, { headers })).json()) as { status: string }).status,
      { timeout: 60_000 },
    )
    .toMatch(/^(sent|delivered)$/);
}

async function submitsTo(page: Page, phone: string): Promise<number> {
  const counters = (await (await page.request.get(`${SMSC}/counters`)).json()) as {
    perDestination: Record<string, { messages: number }>;
  };
  return Object.entries(counters.perDestination)
    .filter(([to]) => to.replace(/\D/g, '').endsWith(phone))
    .reduce((n, [, c]) => n + c.messages, 0);
}

test('replies arrive in /respostas: read, marked handled, filtered, answered by SMS', async ({ page }) => {
  // A campaign run to its end, then every look twice: minutes on a loaded machine.
  test.setTimeout(360_000);
  const account = await signInWithApi(page);
  const maria = mobile();
  const joao = mobile();

  // Nothing yet: the empty state.
  await page.goto('/respostas');
  await expect(page.getByTestId('replies-empty')).toBeVisible({ timeout: 30_000 });
  await closeOnboarding(page);
  await expect(page.getByRole('link', { name: 'Respostas' })).toBeVisible();
  await snap(page, 'replies-empty-pt-light');

  const campaignId = await campaignTo(page, account.token, [`${maria};Maria Teste`, `${joao};João Teste`]);
  // A third customer got a message sent through the API (an order update from the company's system).
  const ana = mobile();
  await apiMessageTo(page, account.token, ana, 'pedido-4242');
  for (const [from, text] of [
    [maria, 'Quero saber o preço, por favor'],
    [joao, 'SAIR'],
    [ana, 'Chegou, obrigada!'],
  ]) {
    const mo = await page.request.post(`${SMSC}/mo`, { data: { from: `55${from}`, to: '28282', text } });
    expect(mo.status(), await mo.text()).toBe(200);
  }

  await page.reload();
  const rows = page.getByTestId('reply-row');
  await expect(rows).toHaveCount(3, { timeout: 30_000 });
  const mariaRow = rows.filter({ hasText: 'Maria Teste' });
  const maskedMaria = `(${maria.slice(0, 2)}) ${maria.slice(2, 7)}-${maria.slice(7)}`;
  await expect(mariaRow.getByTestId('reply-phone')).toHaveText(maskedMaria);
  await expect(mariaRow.getByTestId('reply-text')).toHaveText('Quero saber o preço, por favor');
  await expect(mariaRow.getByTestId('reply-campaign')).toHaveText('Black Friday');
  await expect(mariaRow.getByTestId('reply-campaign')).toHaveAttribute('href', `/campanhas/${campaignId}`);
  await expect(mariaRow.getByTestId('reply-opt-out')).toHaveCount(0);
  const joaoRow = rows.filter({ hasText: 'João Teste' });
  await expect(joaoRow.getByTestId('reply-opt-out')).toHaveText('Descadastro');
  // The API's message has no campaign page: the cell names the API and the order's externalId, no link.
  const anaRow = rows.filter({ hasText: 'Chegou, obrigada!' });
  await expect(anaRow.getByTestId('reply-campaign')).toContainText('Enviada pela API');
  await expect(anaRow.getByTestId('reply-external-id')).toHaveText('pedido-4242');
  await expect(anaRow.locator('a')).toHaveCount(0);

  await inEveryLook(page, async (look) => {
    await expect(page.getByTestId('replies-table')).toBeVisible();
    await snap(page, `replies-${look}`);
  });

  // Mark Maria's handled; "only not handled" leaves João's and Ana's.
  await mariaRow.getByTestId('reply-handle').click();
  await expect(mariaRow.getByTestId('reply-handled')).toHaveText('Tratada');
  await page.getByTestId('replies-filter-open').click();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Maria Teste' })).toHaveCount(0);
  await page.getByTestId('replies-filter-open').click();
  await expect(rows).toHaveCount(3);

  // The CSV export downloads the list.
  const download = page.waitForEvent('download');
  await page.getByTestId('replies-export').click();
  expect((await download).suggestedFilename()).toBe('respostas.csv');

  // Answer Maria by SMS: the cost shown, one SMS reaches the SMSC.
  const before = await submitsTo(page, maria);
  await mariaRow.getByTestId('reply-answer').click();
  const dialog = page.getByTestId('answer-dialog');
  await expect(dialog.getByTestId('answer-cost')).toContainText('Custa 1 crédito de SMS');
  await dialog.getByTestId('answer-text').fill('Olá Maria! O preço é R$ 49,90.');
  await snap(page, 'replies-answer-pt-light');
  await dialog.getByTestId('answer-submit').click();
  // An earlier toast (marked handled) may still be on screen: find this one by its text.
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Resposta enviada' })).toBeVisible();
  await expect.poll(() => submitsTo(page, maria), { timeout: 20_000 }).toBe(before + 1);

  // João opted out: answering him is refused with the reason, nothing sent.
  const joaoBefore = await submitsTo(page, joao);
  await joaoRow.getByTestId('reply-answer').click();
  await dialog.getByTestId('answer-text').fill('Tem certeza?');
  await dialog.getByTestId('answer-submit').click();
  await expect(dialog.getByTestId('answer-error')).toContainText('descadastro');
  await page.keyboard.press('Escape');
  expect(await submitsTo(page, joao)).toBe(joaoBefore);

  // At 390 px, in every language and theme (chosen as a phone would: stored, then reloaded):
  // cards, nothing past the right edge, no sideways scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const lang of ['pt', 'en', 'cn']) {
    for (const theme of ['light', 'dark']) {
      await page.evaluate(
        ({ keys, lang, theme }) => {
          localStorage.setItem(keys.language, lang);
          localStorage.setItem(keys.colorScheme, theme);
        },
        { keys: STORAGE_KEYS, lang, theme },
      );
      await page.reload();
      await expect(page.getByTestId('replies-cards')).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await expect(page.getByTestId('reply-row')).toHaveCount(3);
      const overflow = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll('[data-testid="reply-row"], [data-testid="replies-filters"] *')];
        return {
          page: document.documentElement.scrollWidth,
          right: Math.max(...boxes.map((c) => c.getBoundingClientRect().right)),
        };
      });
      expect(overflow.page, `${lang} ${theme}`).toBeLessThanOrEqual(390);
      expect(overflow.right, `${lang} ${theme}`).toBeLessThanOrEqual(390);
      await snap(page, `replies-phone-${lang}-${theme}`);
    }
  }
});
