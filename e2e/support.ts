import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, 'screenshots');

/** Saves a full-page screenshot under e2e/screenshots/<name>.png, for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
