import fs from 'node:fs';
import path from 'node:path';
import { STORAGE_KEYS } from '@ecoa/shared';
import { expect, type Page } from '@playwright/test';

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, 'screenshots');
/** E2E_SCREENSHOTS=off: CI's second e2e run, on PostgreSQL (its pictures would be the first run's). */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS !== 'off';

/**
 * Saves a full-page screenshot under e2e/screenshots/<name>.png, for people to look at; nothing
 * without screenshots, while every step and assertion around it still runs.
 */
export async function snap(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Flips light/dark: signed in, the toggle lives in the avatar menu; signed out, in the header. */
export async function toggleTheme(page: Page): Promise<void> {
  const menu = page.getByTestId('user-menu');
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('theme-toggle').click();
  await page.keyboard.press('Escape');
}

/** Picks a language by its visible name ('Português', 'English', '简体中文'). */
export async function switchLanguage(page: Page, name: string): Promise<void> {
  await page.getByTestId('language-switcher').click();
  await page.getByRole('option', { name }).click();
}

const LANGUAGES = [
  ['pt', 'Português'],
  ['en', 'English'],
  ['cn', '简体中文'],
] as const;

/**
 * Runs `shoot` in every language and both themes (`look` is e.g. `en-dark`), then back to
 * Portuguese, light. Without screenshots (E2E_SCREENSHOTS=off: CI's PostgreSQL run) only the first
 * look runs: what `shoot` checks does not depend on the database, and the languages and themes
 * are checked by the run that takes the pictures.
 */
export async function inEveryLook(page: Page, shoot: (look: string) => Promise<void>): Promise<void> {
  if (!SCREENSHOTS) {
    await shoot('pt-light');
    return;
  }
  for (const [lang, name] of LANGUAGES) {
    if (lang !== 'pt') await switchLanguage(page, name);
    await shoot(`${lang}-light`);
    await toggleTheme(page);
    await shoot(`${lang}-dark`);
    await toggleTheme(page);
  }
  await switchLanguage(page, 'Português');
}

/**
 * A new account sees the create-campaign onboarding popover (spec: next to the header's button)
 * on every page until it is dismissed; it covers whatever sits below that button, such as a
 * page's own top-right actions. Closes it as a user would, unless this browser already did. The
 * popover appears only once the signed-in frame has loaded: wait for it rather than guess.
 */
export async function closeOnboarding(page: Page): Promise<void> {
  const dismissed = await page.evaluate(
    (key) => localStorage.getItem(key) === 'true',
    STORAGE_KEYS.onboardingDismissed,
  );
  if (dismissed) return;
  const popover = page.getByTestId('onboarding-popover');
  await expect(popover).toBeVisible();
  await popover.getByRole('button').click();
  await expect(popover).toBeHidden();
}
