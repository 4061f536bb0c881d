import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInWithApi, useOwnNetwork } from './auth.test-support';

/**
 * Issue 21: an upload in progress can be canceled. The list import's upload is slowed down to
 * 64 KB/s (Chromium's own network emulation), Cancel is pressed halfway: the request is aborted,
 * the dialog goes back to the mapping with no error, and no list is created.
 */
test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

function mediumCsv(): string {
  const file = path.join(os.tmpdir(), 'ecoa-e2e-cancelar.csv');
  if (!fs.existsSync(file)) {
    let text = 'nome;telefone\n';
    for (let i = 0; i < 40_000; i++) text += `Pessoa ${i};(11) 9${String(10_000_000 + i)}\n`;
    fs.writeFileSync(file, text);
  }
  return file;
}

test('Cancel stops a list upload in progress; nothing is created', async ({ page, context }) => {
  test.setTimeout(60_000);
  const { token } = await signInWithApi(page);
  await page.goto('/listas');
  await page.getByTestId('import-open').click();
  await page.getByTestId('import-dropzone').locator('input[type="file"]').setInputFiles(mediumCsv());
  await expect(page.getByTestId('import-preview')).toBeVisible();
  await page.getByTestId('import-name').fill('Lista cancelada');

  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 64 * 1024,
  });
  const uploads: string[] = [];
  page.on('requestfailed', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/lists') uploads.push('aborted');
  });
  await page.getByTestId('import-submit').click();
  const cancel = page.getByRole('button', { name: 'Cancelar envio' });
  await expect(cancel).toBeVisible();
  await page.waitForTimeout(1_000);
  await cancel.click();

  await expect(page.getByTestId('import-preview')).toBeVisible();
  await expect(page.getByTestId('import-error')).toHaveCount(0);
  await expect.poll(() => uploads).toEqual(['aborted']);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const lists = await page.request.get('/api/v1/lists?q=Lista%20cancelada', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await lists.json()).total).toBe(0);
});
