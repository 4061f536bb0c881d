import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { snap, toggleTheme } from './screens.test-support';

const FIXTURES = path.resolve(import.meta.dirname, '../apps/server/src/modules/lists/fixtures');

test.beforeEach(async ({ page, context }) => {
  await useOwnNetwork(context);
  await signInWithApi(page);
});

async function dropFile(page: Page, file: string) {
  await page.getByTestId('import-open').click();
  await page.getByTestId('import-dropzone').locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByTestId('import-preview')).toBeVisible();
}

/** A CSV big enough (150k rows) for the import to take a few seconds. */
function bigCsv(): string {
  const file = path.join(os.tmpdir(), 'ecoa-e2e-grande.csv');
  if (!fs.existsSync(file)) {
    let text = 'nome;telefone;cidade\n';
    for (let i = 0; i < 150_000; i++) text += `Pessoa ${i};(11) 9${String(10_000_000 + i)};São Paulo\n`;
    fs.writeFileSync(file, text);
  }
  return file;
}

test('imports an Excel export: mapping, counts, invalid rows download, opt-outs', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/listas');
  await expect(page.getByRole('heading', { name: 'Listas' })).toBeVisible();
  await snap(page, 'lists-empty-pt-light');

  await dropFile(page, path.join(FIXTURES, 'excel-br-windows1252.csv'));
  await expect(page.getByTestId('import-preview')).toContainText('João da Silva');
  await expect(page.getByTestId('import-preview')).toContainText('Açougue Boi; Cia');
  await expect(page.getByTestId('import-phone-column')).toHaveValue('Telefone');
  await expect(page.getByTestId('import-name-column')).toHaveValue('Nome');
  await expect(page.getByTestId('import-modal')).toContainText('{empresa}');
  await page.getByTestId('import-name').fill('Clientes de SP');
  await snap(page, 'lists-mapping-pt-light');
  await page.getByTestId('import-submit').click();

  const row = page.locator('[data-testid^="list-row-"]', { hasText: 'Clientes de SP' });
  await expect(row.getByTestId('list-ready')).toBeVisible({ timeout: 20_000 });
  await expect(row.getByTestId('count-total')).toHaveText('10');
  await expect(row.getByTestId('count-valid')).toContainText('7');
  await expect(row.getByTestId('count-valid')).toContainText('5 celulares · 2 fixos');
  await expect(row.getByTestId('count-invalid')).toHaveText('2');
  await expect(row.getByTestId('count-duplicates')).toHaveText('1');
  await expect(row.getByTestId('count-opted-out')).toHaveText('0');

  await row.getByTestId('list-name').click();
  const contacts = page.getByTestId('contacts-modal');
  await expect(contacts).toContainText('(11) 91234-5678');
  await expect(contacts).toContainText('João da Silva');
  await expect(contacts).toContainText('empresa: Padaria Pão Quente');
  await expect(contacts).toContainText('(51) 98123-4567');
  await snap(page, 'lists-contacts-pt-light');
  await page.keyboard.press('Escape');
  await expect(contacts).toBeHidden();

  const downloading = page.waitForEvent('download');
  await row.getByTestId('download-invalid').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Clientes de SP-invalidos.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain('linha;motivo;Nome;Telefone;Empresa;Cidade');
  expect(csv).toContain('7;DDD inexistente;Fábio Gonçalves;(20) 91234-5678');
  expect(csv).toContain('Contém letras ou símbolos');
  await snap(page, 'lists-ready-pt-light');

  // Opt-outs: a number of the list, typed another way, counts on the list.
  await page.getByTestId('tab-opt-outs').click();
  await page.getByTestId('opt-out-input').fill('+55 (11) 9 1234-5678\nnão é número');
  await page.getByTestId('opt-out-add').click();
  await expect(page.getByTestId('opt-outs-table')).toContainText('(11) 91234-5678');
  await expect(page.getByTestId('toast-success').last()).toContainText('1 adicionados');
  await snap(page, 'lists-opt-outs-pt-light');
  await page.getByRole('tab', { name: 'Listas' }).click();
  await expect(row.getByTestId('count-opted-out')).toHaveText('1');

  // The same screen in English/dark and Chinese.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('option', { name: 'English' }).click();
  await toggleTheme(page);
  await expect(page.getByRole('heading', { name: 'Lists' })).toBeVisible();
  await expect(row.getByTestId('list-ready')).toHaveText('Ready');
  await snap(page, 'lists-ready-en-dark');
  await page.getByTestId('language-switcher').click();
  await page.getByRole('option', { name: '简体中文' }).click();
  await expect(row.getByTestId('list-ready')).toHaveText('就绪');
  await snap(page, 'lists-ready-cn-dark');
  await toggleTheme(page);
  await snap(page, 'lists-ready-cn-light');
});

test('shows import progress that survives a reload, then the counts', async ({ page }) => {
  test.setTimeout(120_000); // a 150k-row import on a busy 2-core machine
  await page.goto('/listas');
  await dropFile(page, bigCsv());
  await page.getByTestId('import-name').fill('Lista grande');
  await page.getByTestId('import-submit').click();
  const row = page.locator('[data-testid^="list-row-"]', { hasText: 'Lista grande' });
  await expect(row.getByTestId('list-progress')).toBeVisible({ timeout: 15_000 });
  await snap(page, 'lists-importing-pt-light');
  await page.reload();
  await expect(row.getByTestId('list-progress').or(row.getByTestId('list-ready'))).toBeVisible();
  await expect(row.getByTestId('list-ready')).toBeVisible({ timeout: 60_000 });
  await expect(row.getByTestId('count-total')).toHaveText('150.000');
  await expect(row.getByTestId('count-valid')).toContainText('150.000');
});

test('refuses a file that is not a spreadsheet with a clear message', async ({ page }) => {
  await page.goto('/listas');
  await page.getByTestId('import-open').click();
  await page
    .getByTestId('import-dropzone')
    .locator('input[type="file"]')
    .setInputFiles(path.join(FIXTURES, 'no-phone.csv'));
  await expect(page.getByTestId('import-modal')).toContainText('Não encontramos uma coluna de telefone');
  await expect(page.getByTestId('import-submit')).toBeDisabled();
  await page.getByTestId('import-modal').getByRole('button', { name: 'Escolher outro arquivo' }).click();
  await page
    .getByTestId('import-dropzone')
    .locator('input[type="file"]')
    .setInputFiles(path.join(FIXTURES, 'legacy.xls'));
  await expect(page.getByTestId('import-error')).toContainText('.xls');
  await snap(page, 'lists-bad-file-pt-light');
});
