import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { writeCnpjSample } from '../apps/server/src/modules/cnpj-base/cnpj-base.sample';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { closeOnboarding, inEveryLook, snap } from './screens.test-support';

/**
 * Issue 13 in the browser: an administrator loads a CNPJ base (a synthetic one in the official
 * layout) from the admin screen; a user granted enrichment uploads a spreadsheet of CNPJs, pays
 * only for the ones found with a phone, exports the result and turns it into a contact list.
 * Screenshots in pt/en/cn × light/dark.
 */
test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test('an administrator loads the CNPJ base; a user enriches a spreadsheet into a contact list', async ({ page }) => {
  test.setTimeout(180_000);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-cnpj-'));
  const sample = await writeCnpjSample(folder, { rows: 600, seed: 13 });

  // The administrator loads the base from a folder on the server.
  const adminToken = await signInAsAdmin(page);
  await page.goto('/listas-enriquecidas-por-usuario');
  await page.getByTestId('cnpj-base-folder').fill(folder);
  await page.getByTestId('cnpj-base-import').click();
  await expect(page.getByTestId('cnpj-base')).toContainText('concluída', { timeout: 60_000 });
  await expect(page.getByTestId('cnpj-base')).toContainText(sample.establishments.toLocaleString('pt-BR'));

  // A user with the enrichment permission and 20 credits.
  const user = await signInWithApi(page);
  const me = (await (
    await page.request.get('/api/me', { headers: { Authorization: `Bearer ${user.token}` } })
  ).json()) as { id: string };
  const admin = { Authorization: `Bearer ${adminToken}` };
  const granted = await page.request.patch(`/api/v1/admin/users/${me.id}`, {
    headers: admin,
    data: { permissions: { enriched: ['all'] } },
  });
  expect(granted.status(), await granted.text()).toBe(200);
  const credits = await page.request.post(`/api/v1/admin/users/${me.id}/adjustments`, {
    headers: admin,
    data: { type: 'ENRICHED', amount: 20, reason: 'créditos de teste e2e' },
  });
  expect(credits.status(), await credits.text()).toBe(201);

  // A spreadsheet: 8 companies of the base (one written twice), one CNPJ it lacks, one typo.
  const known = sample.known.slice(0, 8);
  const withPhone = known.filter((k) => k.phones.length > 0);
  const rows = [
    ...known.map((k, i) => `Empresa ${i};${k.cnpj}`),
    `Repetida;${known[0]!.cnpj}`,
    'Fora da base;99.888.777/0001-00',
    'Errado;11.222.333/0001-00',
  ];
  const csv = path.join(folder, 'empresas.csv');
  fs.writeFileSync(csv, `Empresa;CNPJ\n${rows.join('\n')}\n`, 'latin1');

  await page.goto('/listas-enriquecidas');
  await expect(page.getByTestId('enrichment-base-month')).toContainText('Base da Receita Federal de');
  await page.getByTestId('enrichment-new').click();
  await page.getByTestId('enrichment-name').fill('Prospecção');
  await page.getByTestId('enrichment-dropzone').locator('input[type="file"]').setInputFiles(csv);
  await snap(page, 'enrichment-new-pt-light');
  await page.getByTestId('enrichment-start').click();

  await expect(page).toHaveURL(/\/listas-enriquecidas\/[0-9a-f-]{36}$/);
  const detailUrl = page.url();
  // The header's create-campaign button is back on this page, and with it a new account's
  // onboarding tip, right over the export button.
  await closeOnboarding(page);
  await expect(page.getByTestId('enrichment-found')).toHaveText('8', { timeout: 30_000 });
  await expect(page.getByTestId('enrichment-valid')).toHaveText('9');
  await expect(page.getByTestId('enrichment-invalid')).toHaveText('1');
  await expect(page.getByTestId('enrichment-duplicates')).toHaveText('1');
  await expect(page.getByTestId('enrichment-withPhone')).toHaveText(String(withPhone.length));
  await expect(page.getByTestId('enrichment-credits-used')).toHaveText(String(withPhone.length));
  await expect(page.getByTestId('enrichment-credits-released')).toHaveText(String(9 - withPhone.length));
  await expect(page.getByTestId('enrichment-result')).toHaveCount(9);

  const download = page.waitForEvent('download');
  await page.getByTestId('enrichment-export').click();
  expect((await download).suggestedFilename()).toBe('Prospecção-enriquecido.csv');

  // The lists page read before the list exists (in the app, no reload): it must show the new one.
  await page.getByTestId('nav-lists').click();
  await expect(page.getByText('Nenhuma lista ainda')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('enrichment-found')).toHaveText('8');

  // The phones found become a contact list, ready for a campaign.
  await page.getByTestId('enrichment-to-list').click();
  await page.getByTestId('enrichment-list-landlines').check();
  await page.getByTestId('enrichment-list-save').click();
  await page.getByTestId('enrichment-list-link').click();
  await expect(page).toHaveURL('/listas');
  await expect(page.getByText('Prospecção').first()).toBeVisible();

  await inEveryLook(page, async (look) => {
    await page.goto('/listas-enriquecidas');
    await expect(page.getByTestId('enrichment-row')).toHaveCount(1);
    await snap(page, `enrichment-${look}`);
    await page.goto(detailUrl);
    await expect(page.getByTestId('enrichment-found')).toHaveText('8');
    await snap(page, `enrichment-detail-${look}`);
    await page.goto('/listas-enriquecidas');
    await page.getByTestId('enrichment-new').click();
    await page
      .getByTestId('enrichment-source')
      .getByText(/Colar|Paste|粘贴/)
      .click();
    await page.getByTestId('enrichment-text').fill(`${known[0]!.cnpj}\n${known[1]!.cnpj}\n123`);
    await expect(page.getByTestId('enrichment-count-valid')).toContainText('2');
    await snap(page, `enrichment-new-${look}`);
    await page.keyboard.press('Escape');
  });

  // The administrators see it with the user.
  await signInAsAdmin(page);
  await page.goto('/listas-enriquecidas-por-usuario');
  await page.getByTestId('enrichment-admin-user').fill(user.email);
  await page.getByRole('option', { name: new RegExp(user.email) }).click();
  await expect(page.getByTestId('enrichment-row')).toHaveCount(1);
  await expect(page.getByTestId('enrichment-row')).toContainText('Prospecção');
  await inEveryLook(page, async (look) => {
    await expect(page.getByTestId('enrichment-row')).toHaveCount(1);
    await snap(page, `admin-enrichments-${look}`);
  });
  await page.getByTestId('enrichment-open').click();
  await expect(page.getByTestId('enrichment-result')).toHaveCount(9);
});
