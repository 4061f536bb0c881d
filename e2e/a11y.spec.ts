import AxeBuilder from '@axe-core/playwright';
import { STORAGE_KEYS } from '@ecoa/shared';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { createAccount, signInAs, signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { importList } from './campaigns.test-support';

/**
 * Issue 14, accessibility: axe-core's WCAG 2.0/2.1 A and AA rules find nothing on any screen, in
 * the light and the dark theme. One administrator sign-in (an administrator sees every page), one
 * small list so the lists table and its detail have rows; the language is left at Portuguese
 * (contrast does not depend on it). Every violation of every screen is collected before the one
 * assertion, so a failure lists them all: screen, rule, element, and axe's own explanation (for
 * color-contrast: the ratio, both colours, the font size and the ratio required). The one thing
 * axe cannot measure is text on the sign-in screens' brand gradient (it reports it as "incomplete",
 * not as a violation): those colours were measured by hand, see AuthLayout.module.css.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

// Reduced motion stops the sidebar's endlessly pulsing "Novo" badge, whose repaints kept a third
// of a core busy in headless Chromium for the whole run (its look is the same at rest).
test.use({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

/**
 * Switches the theme in place, as another tab choosing it would: the stored choice changes and
 * Mantine's colour-scheme manager hears the storage event. No reload, so each screen is opened
 * once for both themes, and it works under an open modal, where the header's toggle is not
 * reachable.
 */
async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(
    ({ key, value }) => {
      localStorage.setItem(key, value);
      window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
    },
    { key: STORAGE_KEYS.colorScheme, value: theme },
  );
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
}

/** Loaders and skeletons gone, every finite animation (modal fade-ins, colour transitions) finished. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('.mantine-Loader-root:visible, .mantine-Skeleton-root:visible')).toHaveCount(0, {
    timeout: 15_000,
  });
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

/** Scans screens in both themes, keeping every violation as a readable line and the count per screen. */
function scanner(page: Page) {
  const problems: string[] = [];
  const counts: Record<string, number> = {};
  const scanOne = async (key: string) => {
    await settle(page);
    // Legacy mode runs axe.run() in the page itself. The default mode finishes every scan in a new
    // blank page (for cross-origin frames, which Ecoa has none of): about five times the CPU.
    // Only violations are wanted: axe then skips building the lists of passing elements.
    // options() replaces the whole option object, so it comes before withTags() (runOnly).
    const { violations } = await new AxeBuilder({ page })
      .setLegacyMode()
      // label-content-name-mismatch (WCAG 2.5.3, label in name) is one of axe's "experimental"
      // rules, which the tags alone leave out: a button named "Saldo da conta" over "R$ 0,00".
      .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
      .withTags(WCAG_TAGS)
      .analyze();
    counts[key] = violations.reduce((sum, v) => sum + v.nodes.length, 0);
    for (const v of violations) {
      for (const node of v.nodes) {
        const why = [...node.any, ...node.all, ...node.none].map((c) => c.message).join(' ');
        problems.push(`${key} ${v.id}: ${node.target.join(' ')}\n    ${why}\n    ${node.html.slice(0, 160)}`);
      }
    }
  };
  return {
    problems,
    counts,
    /** Waits for `ready`, scans in light, then in dark, and leaves the page in light. */
    async scan(screen: string, ready: Locator): Promise<void> {
      await expect(ready).toBeVisible({ timeout: 15_000 });
      for (const theme of THEMES) {
        await useTheme(page, theme);
        await scanOne(`${screen} (${theme})`);
      }
      await useTheme(page, 'light');
    },
  };
}

test('every screen passes the WCAG 2.1 A/AA rules of axe-core, in the light and the dark theme', async ({ page }) => {
  test.setTimeout(150_000); // about 25 s on an idle machine; 80 s seen with the CPUs shared
  const { problems, counts, scan } = scanner(page);
  const account = await createAccount(page.request, { name: 'Padaria Acessível' });

  // Signed out: sign-in, the code step, sign-up.
  await page.goto('/');
  await scan('sign-in', page.getByTestId('login-step'));
  await page.getByTestId('login-email').fill(account.email);
  await page.getByTestId('login-submit').click();
  await scan('sign-in code', page.getByTestId('code-step'));
  await page.getByTestId('code-back').click();
  await page.getByTestId('create-account').click();
  await scan('sign-up', page.getByTestId('signup-step'));

  // A new user's first look: the welcome modal, then the create-campaign onboarding popover.
  await signInAs(page, account.email);
  await page.goto('/');
  await scan('welcome', page.getByTestId('welcome-close'));
  await page.getByTestId('welcome-close').click();
  await scan('onboarding', page.getByTestId('onboarding-popover'));

  const token = await signInAsAdmin(page);
  await importList(page, token, 'Clientes Acessíveis', 3);
  await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
  await page.goto('/');
  // In-app navigation, as the sidebar's links do: the app is loaded once, not once per screen.
  const open = async (path: string, screen: string, ready: Locator) => {
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await scan(screen, ready);
  };

  await open('/', 'dashboard', page.getByTestId('dashboard-chart'));
  await open('/campanhas', 'campaigns', page.getByTestId('campaigns-search'));
  await open('/campanhas/criar-campanha', 'campaign wizard', page.getByTestId('wizard-name'));
  await open('/listas', 'lists', page.getByTestId('list-ready'));
  await page.getByTestId('list-name').first().click();
  await scan('list contacts', page.getByTestId('contacts-modal'));
  await page.keyboard.press('Escape');
  await open('/audios', 'audios', page.getByTestId('audios-empty'));
  await open('/link-rotativo', 'rotating links', page.getByRole('heading', { level: 2 }));
  await open('/listas-enriquecidas', 'enrichment', page.getByTestId('enrichment-new'));
  await open('/shopping', 'shopping', page.getByTestId('shopping-page'));
  await page.getByTestId('shopping-buy').click();
  await scan('buy credits', page.getByTestId('buy-credits-modal'));
  // The shell owns this dialog: it would stay open over the next screens.
  await page.getByTestId('purchase-back').click();
  await expect(page.getByTestId('buy-credits-modal')).toBeHidden();
  await open('/configuracoes', 'settings', page.getByTestId('settings-page'));
  // Administrators' pages.
  await open('/campanhas-por-usuario', 'admin campaigns', page.getByTestId('admin-campaigns-page'));
  await open('/listas-enriquecidas-por-usuario', 'admin enrichment', page.getByTestId('cnpj-base'));
  await open('/links', 'admin links', page.getByTestId('admin-links-rotating'));
  await open('/usuarios', 'users', page.getByTestId('users-table'));
  await page.getByTestId('users-search').fill(account.email);
  await page.locator('[data-testid^="user-row-"]', { hasText: account.email }).click();
  await scan('user drawer (prices, credits)', page.getByTestId('user-form'));

  const perScreen = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([screen, n]) => `${screen}: ${n}`);
  expect(problems.length, `axe violations per screen: ${perScreen.join(', ')}\n${problems.join('\n')}`).toBe(0);
});

const ALL_DAY = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

/**
 * Issue 22: the screens with data. An account with a finished campaign of 55 recipients (two
 * pages of recipients), 11 credit adjustments (two pages of history on the shopping page), so the
 * tables, their pagination and the campaigns' progress bars are all on screen when axe looks.
 */
test('the screens with tables, pagination and progress bars pass the WCAG 2.1 A/AA rules too', async ({ page }) => {
  test.setTimeout(150_000);
  const { problems, counts, scan } = scanner(page);
  const admin = await signInAsAdmin(page);
  const account = await signInWithApi(page, { name: 'Loja Com Dados' });
  const headers = { Authorization: `Bearer ${account.token}` };
  const me = (await (await page.request.get('/api/me', { headers })).json()) as { id: string };
  for (let i = 0; i < 11; i++) {
    const res = await page.request.post(`/api/v1/admin/users/${me.id}/adjustments`, {
      headers: { Authorization: `Bearer ${admin}` },
      data: { type: 'SMSSHORT', amount: 10, reason: `crédito de teste ${i + 1}` },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  const list = await importList(page, account.token, 'Clientes com dados', 55);
  const created = await page.request.post('/api/v1/campaigns', {
    headers,
    data: {
      name: 'Campanha com dados',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Oi' },
      window: ALL_DAY,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const started = await page.request.post(`/api/v1/campaigns/${id}/start`, { headers });
  expect(started.status(), await started.text()).toBe(200);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/campaigns/${id}`, { headers })).json()) as { status: string }).status,
      {
        timeout: 60_000,
      },
    )
    .toBe('COMPLETED');

  await page.evaluate(
    ({ closed, onboarding }) => {
      localStorage.setItem(closed, 'false');
      localStorage.setItem(onboarding, 'true');
    },
    { closed: STORAGE_KEYS.closedModal, onboarding: STORAGE_KEYS.onboardingDismissed },
  );
  const pagination = page.locator('.mantine-Pagination-root');
  await page.goto('/');
  await scan('dashboard with campaigns', page.getByTestId('campaign-progress').first());
  await page.goto('/campanhas');
  await scan('campaigns with progress', page.getByTestId('campaign-progress').first());
  await page.goto(`/campanhas/${id}`);
  await expect(page.getByTestId('recipient-row')).toHaveCount(50, { timeout: 15_000 });
  await scan('campaign recipients with pagination', pagination);
  await page.goto('/shopping');
  await expect(page.getByTestId('ledger-table')).toBeVisible();
  await scan('shopping with pagination', pagination);
  await signInAsAdmin(page);
  await page.goto('/campanhas-por-usuario');
  await scan('campaigns per user with progress', page.getByTestId('campaign-progress').first());
  // The narrower shells: the icon sidebar (its compact language switcher) and the phone's floating menu button.
  await page.setViewportSize({ width: 1024, height: 768 });
  await scan('icon sidebar (1024px)', page.getByTestId('sidebar').getByTestId('language-switcher'));
  await page.setViewportSize({ width: 768, height: 740 });
  await scan('phone (768px)', page.getByTestId('menu-button'));

  const perScreen = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([screen, n]) => `${screen}: ${n}`);
  expect(problems.length, `axe violations per screen: ${perScreen.join(', ')}\n${problems.join('\n')}`).toBe(0);
});
