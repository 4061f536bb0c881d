import { STORAGE_KEYS } from '@ecoa/shared';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { importList } from './campaigns.test-support';
import { snap } from './screens.test-support';

/**
 * Issue 22, phones: at 390 × 844 nothing of the dashboard, the campaigns list, the lists and the
 * campaign wizard is cut or out of reach — no text clipped by an ellipsis or a hidden overflow
 * (the balance card's "Comprar", the campaigns' status badges), nothing past the right edge (a
 * table scrolling sideways hides its last columns), no sideways scroll of the page. Checked in
 * every language and both themes: English and Chinese labels are not the Portuguese widths.
 */
test.use({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

const ALL_DAY = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };
type Look = { lang: string; theme: 'light' | 'dark' };
const LOOKS: Look[] = ['pt', 'en', 'cn'].flatMap((lang) =>
  (['light', 'dark'] as const).map((theme) => ({ lang, theme })),
);

/**
 * What a phone user cannot read or reach, one line each: the page scrolling sideways, an element
 * whose right edge is past the screen's, a text its box cuts (its content wider than the box that
 * hides the rest, as Mantine's ellipsis does). Only what is rendered and visible counts.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const problems: string[] = [];
    const named = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' ? el.className.split(' ').find((c) => c.startsWith('mantine-')) : '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid=${id}` : ''}${cls ? ` .${cls}` : ''}> "${text}"`;
    };
    if (document.documentElement.scrollWidth > width) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide`);
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      // Zero-size boxes, and the 1px boxes of text kept for screen readers only (VisuallyHidden).
      if (box.width <= 1 || box.height <= 1) continue;
      // Only the outermost element past the edge: its children would repeat the same line.
      if (box.right > width + 1 && (el.parentElement?.getBoundingClientRect().right ?? 0) <= width + 1) {
        problems.push(`past the right edge (${Math.round(box.right)}px): ${named(el)}`);
      }
      const style = getComputedStyle(el);
      const clips = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
      const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      const cut = el.scrollWidth > el.clientWidth + 1;
      if (clips && cut && (hasText || el.querySelector('span, p'))) {
        if ((el.textContent ?? '').trim())
          problems.push(`cut (${el.clientWidth}px of ${el.scrollWidth}px): ${named(el)}`);
      }
    }
    // A stepper's steps stand in one row or one column (or are summed up as "3 of 5"), never a ragged grid.
    const steps = [...document.querySelectorAll('.mantine-Stepper-step')].filter((el) => el.checkVisibility());
    const rows = new Set(steps.map((el) => Math.round(el.getBoundingClientRect().top)));
    const columns = new Set(steps.map((el) => Math.round(el.getBoundingClientRect().left)));
    if (rows.size > 1 && columns.size > 1) {
      problems.push(`the stepper's ${steps.length} steps wrap into ${rows.size} rows of ${columns.size} places`);
    }
    return problems;
  });
}

/** Reloads the page in a language and a theme, as a phone that chose them would open it. */
async function openInLook(page: Page, look: Look, ready: (page: Page) => Locator): Promise<void> {
  await page.evaluate(
    ({ keys, lang, theme }) => {
      localStorage.setItem(keys.language, lang);
      localStorage.setItem(keys.colorScheme, theme);
    },
    { keys: STORAGE_KEYS, ...look },
  );
  await page.reload();
  await expect(ready(page)).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('.mantine-Loader-root:visible')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', look.theme);
}

/**
 * Every look of one screen: checked, photographed (e2e/screenshots/phone-<screen>-<lang>-<theme>.png);
 * the problems of all of them in one list. The page is left in Portuguese, light.
 */
async function checkEveryLook(page: Page, screen: string, ready: (page: Page) => Locator): Promise<string[]> {
  const found: string[] = [];
  for (const look of LOOKS) {
    await openInLook(page, look, ready);
    for (const problem of await layoutProblems(page)) found.push(`${screen} (${look.lang}, ${look.theme}): ${problem}`);
    await snap(page, `phone-${screen}-${look.lang}-${look.theme}`);
  }
  await openInLook(page, LOOKS[0]!, ready);
  return found;
}

test('at 390px the dashboard, campaigns, lists and the wizard fit the screen, nothing cut', async ({ page }) => {
  test.setTimeout(240_000);
  const admin = await signInAsAdmin(page);
  const account = await signInWithApi(page, { name: 'Padaria do Bairro Ltda' });
  const headers = { Authorization: `Bearer ${account.token}` };
  const me = (await (await page.request.get('/api/me', { headers })).json()) as { id: string };
  // A balance in the thousands: the balance card's widest figure beside its button.
  const paid = await page.request.post(`/api/v1/admin/users/${me.id}/payments`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { amount: 12_345.67, method: 'PIX', reason: 'pagamento de teste e2e' },
  });
  expect(paid.status(), await paid.text()).toBe(201);
  const credited = await page.request.post(`/api/v1/admin/users/${me.id}/adjustments`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { type: 'SMSSHORT', amount: 50, reason: 'créditos de teste e2e' },
  });
  expect(credited.status(), await credited.text()).toBe(201);
  const list = await importList(page, account.token, 'Clientes da padaria com um nome comprido', 3);
  // The longest statuses in every language: a draft and a completed campaign.
  const create = async (name: string) => {
    const res = await page.request.post('/api/v1/campaigns', {
      headers,
      data: { name, channel: 'sms_short', listIds: [list], content: { text: 'Oi {nome}' }, window: ALL_DAY },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  await create('Rascunho de promoção de Natal');
  const done = await create('Promoção de pães de fim de semana');
  expect((await page.request.post(`/api/v1/campaigns/${done}/start`, { headers })).status()).toBe(200);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/campaigns/${done}`, { headers })).json()) as { status: string })
          .status,
      { timeout: 60_000 },
    )
    .toBe('COMPLETED');
  await page.evaluate(
    ({ closed, onboarding }) => {
      localStorage.setItem(closed, 'false');
      localStorage.setItem(onboarding, 'true');
    },
    { closed: STORAGE_KEYS.closedModal, onboarding: STORAGE_KEYS.onboardingDismissed },
  );

  const problems: string[] = [];
  await page.goto('/');
  problems.push(...(await checkEveryLook(page, 'dashboard', (p) => p.getByTestId('campaign-status').first())));
  await page.goto('/campanhas');
  problems.push(...(await checkEveryLook(page, 'campaigns', (p) => p.getByTestId('campaign-status').nth(1))));
  await page.goto('/listas');
  problems.push(...(await checkEveryLook(page, 'lists', (p) => p.getByTestId('list-ready'))));
  await page.goto('/campanhas/criar-campanha');
  problems.push(...(await checkEveryLook(page, 'wizard', (p) => p.getByTestId('wizard-name'))));
  // The steps summed up in one line, and it follows the wizard.
  await expect(page.getByTestId('wizard-step-count')).toContainText('Etapa 1 de 5');
  await page.getByTestId('wizard-name').fill('Campanha pelo celular');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard-step-count')).toContainText('Etapa 2 de 5');
  await expect(page.getByTestId('wizard-step-count')).toContainText('Destinatários');
  problems.push(...(await layoutProblems(page)).map((p) => `wizard, recipients step: ${p}`));
  await snap(page, 'phone-wizard-recipients');
  expect(problems, problems.join('\n')).toEqual([]);
});
