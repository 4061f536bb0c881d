import { expect, type Page, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { importList, openWindowAllDay } from './campaigns.test-support';
import { inEveryLook, snap } from './screens.test-support';

/**
 * Issue 21 in the browser: "Agendar campanha" never sends at once (an empty or past date is
 * refused on its field, nothing started; a future one is SCHEDULED), a draft reopened shows the
 * server's current version, and campaign times are São Paulo's, dated and labelled.
 */
test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

type ApiCampaign = { id: string; status: string; scheduledAt: string | null; startedAt: string | null; name: string };
const auth = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

async function campaignsOf(page: Page, token: string): Promise<ApiCampaign[]> {
  const res = await page.request.get('/api/v1/campaigns', auth(token));
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: ApiCampaign[] }).items;
}

/** The wizard from the channel to the "when" step: one list, one SMS text. */
async function wizardUpToWhen(page: Page, name: string) {
  await page.goto('/campanhas/criar-campanha');
  await page.getByTestId('wizard-name').fill(name);
  await page.getByTestId('wizard-channel-sms_short').click();
  await page.getByTestId('wizard-next').click();
  await expect(page).toHaveURL(/rascunho=/);
  await page.getByTestId('wizard-list').first().click();
  await expect(page.getByTestId('wizard-recipients')).toHaveText('2');
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('campaign-text').fill('Lembrete da consulta');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-when')).toBeVisible();
  await openWindowAllDay(page);
}

/** `YYYY-MM-DD` of tomorrow in São Paulo. */
function tomorrowInSaoPaulo(): string {
  return new Date(Date.now() + 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10);
}

test('"Agendar campanha" refuses an empty or past date on its field (nothing started) and schedules a future one', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const account = await signInWithApi(page);
  await importList(page, account.token, 'Pacientes', 2);
  await wizardUpToWhen(page, 'Consultas de amanhã');

  await page.getByTestId('wizard-when').getByText('Agendar', { exact: true }).click();
  const dateField = page.getByTestId('wizard-schedule-at');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByText('Escolha a data e a hora do agendamento.')).toBeVisible();
  await expect(dateField).toHaveAttribute('aria-invalid', 'true');
  await inEveryLook(page, (look) => snap(page, `campaign-schedule-required-${look}`));

  await dateField.fill('2020-01-06T10:00');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByText('Esta data e hora já passaram. Escolha um momento futuro.')).toBeVisible();
  await expect(page.getByTestId('wizard-when')).toBeVisible();
  // Nothing started, nothing scheduled: still a draft without a date.
  const [draft] = await campaignsOf(page, account.token);
  expect(draft).toMatchObject({ status: 'DRAFT', scheduledAt: null, startedAt: null });

  const day = tomorrowInSaoPaulo();
  const [y, m, d] = day.split('-');
  await dateField.fill(`${day}T09:30`);
  await page.getByTestId('wizard-next').click();
  // The review, the button and the request agree.
  await expect(page.getByTestId('review-when')).toContainText(`Envio em ${d}/${m}/${y}, 09:30 (horário de Brasília)`);
  await expect(page.getByTestId('wizard-start')).toHaveText('Agendar campanha');
  const started = page.waitForRequest((r) => r.url().endsWith('/start') && r.method() === 'POST');
  await page.getByTestId('wizard-start').click();
  expect((await started).postDataJSON()).toEqual({ mode: 'schedule', schedule: `${day}T09:30:00-03:00` });

  await expect(page).toHaveURL(/\/campanhas\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'SCHEDULED');
  await expect(page.getByText(`Agendada para ${d}/${m}/${y}, 09:30 (horário de Brasília).`)).toBeVisible();
  await inEveryLook(page, (look) => snap(page, `campaign-scheduled-${look}`));
  const [campaign] = await campaignsOf(page, account.token);
  expect(campaign).toMatchObject({
    status: 'SCHEDULED',
    scheduledAt: new Date(`${day}T09:30:00-03:00`).toISOString(),
    startedAt: null,
  });
});

test("a draft edited elsewhere reopens with the server's version, and is saved over that", async ({ page }) => {
  test.setTimeout(180_000);
  const account = await signInWithApi(page);
  await importList(page, account.token, 'Clientes', 2);
  await page.goto('/campanhas/criar-campanha');
  await page.getByTestId('wizard-name').fill('Primeira versão');
  await page.getByTestId('wizard-next').click();
  await expect(page).toHaveURL(/rascunho=/);
  const id = new URL(page.url()).searchParams.get('rascunho')!;

  // Away inside the app (its cache kept), then the draft is changed in another tab.
  await page.getByRole('link', { name: 'Campanhas', exact: true }).first().click();
  await expect(page.getByTestId('campaign-row')).toHaveCount(1);
  const edited = await page.request.patch(`/api/v1/campaigns/${id}`, {
    ...auth(account.token),
    data: { name: 'Editada em outra aba', content: { text: 'Texto da outra aba' } },
  });
  expect(edited.status(), await edited.text()).toBe(200);

  await page.getByTestId('campaign-link').first().click();
  await expect(page.getByTestId('wizard-name')).toHaveValue('Editada em outra aba');
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('wizard-list').first().click();
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('campaign-text')).toHaveValue('Texto da outra aba');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-when')).toBeVisible();
  const [saved] = await campaignsOf(page, account.token);
  expect(saved?.name).toBe('Editada em outra aba');
});

test.describe('in a browser outside São Paulo (Manaus, UTC−4)', () => {
  test.use({ timezoneId: 'America/Manaus' });

  test("recipients' sent and finished columns show São Paulo's date and time, labelled", async ({ page }) => {
    test.setTimeout(180_000);
    const account = await signInWithApi(page);
    await importList(page, account.token, 'Pacientes', 2);
    await wizardUpToWhen(page, 'Agora');
    await page.getByTestId('wizard-next').click();
    await expect(page.getByTestId('wizard-start')).toHaveText('Iniciar campanha');
    await expect(page.getByTestId('review-when')).toContainText('Envio assim que você confirmar');
    await page.getByTestId('wizard-start').click();
    await expect(page.getByTestId('campaign-status')).toHaveAttribute('data-status', 'COMPLETED', { timeout: 30_000 });
    await expect(page.getByTestId('recipient-row')).toHaveCount(2);
    const table = page.getByTestId('recipients-table');
    await expect(table.getByRole('columnheader', { name: 'Enviada (horário de Brasília)' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Finalizada (horário de Brasília)' })).toBeVisible();

    const id = page.url().split('/').pop()!;
    const res = await page.request.get(`/api/v1/campaigns/${id}/messages?page=1`, auth(account.token));
    const { items } = (await res.json()) as { items: { to: string; submittedAt: string; finishedAt: string }[] };
    const inSaoPaulo = (iso: string) =>
      new Intl.DateTimeFormat('pt-BR', {
        dateStyle: 'short',
        timeStyle: 'medium',
        timeZone: 'America/Sao_Paulo',
      }).format(new Date(iso));
    for (const r of items) {
      const row = page.getByTestId('recipient-row').filter({ hasText: r.to });
      await expect(row).toContainText(inSaoPaulo(r.submittedAt));
      await expect(row).toContainText(inSaoPaulo(r.finishedAt));
    }
    await expect(page.getByTestId('recipient-row').first()).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}/);
    await inEveryLook(page, (look) => snap(page, `campaign-recipients-times-${look}`));
  });
});
