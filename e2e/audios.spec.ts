import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { mp3File, wavFile } from '../apps/server/test/audio-builder.test-support';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { snap, switchLanguage, toggleTheme } from './screens.test-support';

/** Audio files written in code (apps/server/test/audio-builder.test-support.ts) into a temporary folder. */
function audioFile(name: string, bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecoa-e2e-audio-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

test.beforeEach(async ({ page, context }) => {
  await useOwnNetwork(context);
  await signInWithApi(page);
});

async function pick(page: Page, file: string) {
  await page.getByTestId('upload-open').click();
  await page.getByTestId('upload-dropzone').locator('input[type="file"]').setInputFiles(file);
}

const row = (page: Page, name: string) => page.locator('[data-testid^="audio-row-"]', { hasText: name });

test('uploads an audio, shows its duration, plays it, renames and deletes it', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/audios');
  await expect(page.getByRole('heading', { name: 'Áudios' })).toBeVisible();
  await expect(page.getByTestId('audios-empty')).toContainText('torpedo de voz');
  await snap(page, 'audios-empty-pt-light');

  // A 12-second tone: the name comes from the file, the user changes it.
  await pick(page, audioFile('boas-vindas.wav', wavFile({ sampleRate: 8000, seconds: 12, toneHz: 440 })));
  await expect(page.getByTestId('upload-name')).toHaveValue('boas-vindas');
  await page.getByTestId('upload-name').fill('Mensagem de boas-vindas');
  await snap(page, 'audios-upload-pt-light');
  await page.getByTestId('upload-submit').click();
  await expect(page.getByTestId('toast-success').last()).toContainText('Mensagem de boas-vindas');
  const welcome = row(page, 'Mensagem de boas-vindas');
  await expect(welcome.getByTestId('audio-duration')).toHaveText('0:12');
  await expect(welcome.getByTestId('audio-size')).toHaveText('188 KB');
  await expect(welcome).toContainText('WAV');

  // An MP3 of 100 frames at 32 kHz: 3.6 s, shown 0:04.
  await pick(page, audioFile('aviso-de-cobranca.mp3', mp3File({ frames: 100, xing: { frames: 100 } })));
  await expect(page.getByTestId('upload-name')).toHaveValue('aviso-de-cobranca');
  await page.getByTestId('upload-submit').click();
  const notice = row(page, 'aviso-de-cobranca');
  await expect(notice.getByTestId('audio-duration')).toHaveText('0:04');
  await expect(notice).toContainText('MP3');

  // The browser's player gets a playable source: the file fetched with the token, decoded by Chromium.
  await welcome.getByTestId('audio-play').click();
  const player = welcome.getByTestId('audio-player');
  await expect(player).toBeVisible();
  await expect(player).toHaveAttribute('src', /^blob:/);
  await expect
    .poll(() => player.evaluate((el: HTMLAudioElement) => (el.readyState >= 1 ? el.duration : 0)))
    .toBeCloseTo(12, 3);
  expect(await player.evaluate((el: HTMLAudioElement) => el.error)).toBeNull();
  await expect.poll(() => player.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeGreaterThan(0);
  await snap(page, 'audios-playing-pt-light');

  // Rename.
  await notice.getByTestId('audio-menu').click();
  await page.getByTestId('action-rename').click();
  await page.getByTestId('rename-input').fill('Aviso de cobrança');
  await page.getByTestId('confirm-rename').click();
  await expect(row(page, 'Aviso de cobrança').getByTestId('audio-duration')).toHaveText('0:04');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  // A phone gets one card per audio.
  await expect(page.getByTestId('audios-cards')).toBeVisible();
  await expect(row(page, 'Aviso de cobrança').getByTestId('audio-duration')).toHaveText('0:04');
  await welcome.getByTestId('audio-play').click();
  await expect(welcome.getByTestId('audio-player')).toHaveAttribute('src', /^blob:/);
  await snap(page, 'audios-list-pt-light-phone');
  await page.setViewportSize({ width: 1280, height: 720 });

  // The same screen in English and Chinese, dark and light.
  await switchLanguage(page, 'English');
  await toggleTheme(page);
  await expect(page.getByRole('heading', { name: 'Audios' })).toBeVisible();
  await expect(page.getByTestId('audios-table')).toContainText('Duration');
  await snap(page, 'audios-list-en-dark');
  await page.getByTestId('upload-open').click();
  await expect(page.getByTestId('upload-dropzone')).toContainText('Drag the audio here');
  await snap(page, 'audios-upload-en-dark');
  await page.keyboard.press('Escape');
  await switchLanguage(page, '简体中文');
  await expect(page.getByTestId('audios-table')).toContainText('时长');
  await snap(page, 'audios-list-cn-dark');
  await toggleTheme(page);
  await snap(page, 'audios-list-cn-light');
  await switchLanguage(page, 'Português');

  // Delete, with a confirmation.
  await row(page, 'Aviso de cobrança').getByTestId('audio-menu').click();
  await page.getByTestId('action-delete').click();
  await expect(page.getByRole('dialog')).toContainText('Aviso de cobrança');
  await snap(page, 'audios-delete-pt-light');
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('toast-success').last()).toContainText('Áudio excluído.');
  await expect(row(page, 'Aviso de cobrança')).toHaveCount(0);
  await expect(welcome).toBeVisible();
});

test('refuses what is not an audio, and audios over 3 minutes, with clear messages', async ({ page }) => {
  await page.goto('/audios');
  // A text file named .mp3: the server reads the content.
  await pick(page, audioFile('nao-e-audio.mp3', Buffer.from('isto não é um áudio\n'.repeat(50))));
  await page.getByTestId('upload-submit').click();
  await expect(page.getByTestId('upload-error')).toContainText('Formato não aceito');
  await page.getByRole('button', { name: 'Escolher outro arquivo' }).click();
  // Four minutes of 8 kHz audio: 1.9 MB, under the size limit, over the duration limit.
  await page
    .getByTestId('upload-dropzone')
    .locator('input[type="file"]')
    .setInputFiles(audioFile('longo.wav', wavFile({ sampleRate: 8000, bitsPerSample: 8, seconds: 240 })));
  await page.getByTestId('upload-submit').click();
  await expect(page.getByTestId('upload-error')).toHaveText('Este áudio dura 4:00; o máximo é 3 minutos.');
  await snap(page, 'audios-too-long-pt-light');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('audios-empty')).toBeVisible();
});
