import { expect, type Page, test } from '@playwright/test';
import { signInAsAdmin, signInWithApi, useOwnNetwork } from './auth.test-support';
import { snap, switchLanguage, toggleTheme } from './screens.test-support';

/** The spec's sidebar (section 2) by test id, in its order; administrators also reach /links. */
const EVERYONE = ['dashboard', 'lists', 'campaigns', 'audios', 'rotatingLink', 'replies', 'shopping'];
const ADMIN = [
  'dashboard',
  'lists',
  'campaigns',
  'audios',
  'rotatingLink',
  'replies',
  'enrichment',
  'shopping',
  'campaignsPerUser',
  'enrichmentPerUser',
  'linksPerUser',
  'users',
];

async function sidebarEntries(page: Page): Promise<string[]> {
  await expect(page.getByTestId('nav-dashboard')).toBeVisible();
  const ids = await page
    .getByTestId('sidebar')
    .locator('nav a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace(/^nav-/, ''));
}

const WELCOME = 'Parabéns! Você ganhou 15 créditos de SMS Short, Flash e Torpedo de voz para fazer uso.';

/** Opens the phone drawer and waits for it to finish sliding in (for a clean screenshot). */
async function openDrawer(page: Page) {
  await page.getByTestId('menu-button').click();
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect.poll(async () => (await page.getByTestId('sidebar').boundingBox())?.x).toBe(0);
  // Every finite animation and transition done (the "Novo" badge pulses forever: ignored).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

/** Keeps the welcome modal out of tests that are not about it. */
async function dismissWelcome(page: Page) {
  await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
}

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test.describe('desktop (1280px)', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a regular user sees the spec entries, the active one highlighted, and is sent away from admin pages', async ({
    page,
  }) => {
    await signInWithApi(page, { name: 'Padaria Pão Quente Ltda' });
    await dismissWelcome(page);
    await page.goto('/campanhas');

    expect(await sidebarEntries(page)).toEqual(EVERYONE);
    await expect(page.getByTestId('nav-campaigns')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('nav-dashboard')).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('nav-rotatingLink')).toContainText('Novo');
    await expect(page.getByTestId('user-name')).toHaveText('Padaria Pã...');
    await expect(page.getByTestId('header-balance')).toContainText('R$');

    // Open by default on wide screens at 18rem, collapsible to 5rem, and the choice is kept.
    const navbar = page.locator('.mantine-AppShell-navbar');
    await expect(navbar).toBeVisible();
    expect((await navbar.boundingBox())?.width).toBe(288);
    await page.getByTestId('sidebar-collapse').click();
    await expect.poll(async () => (await navbar.boundingBox())?.width).toBe(80);
    await page.reload();
    await expect.poll(async () => (await navbar.boundingBox())?.width).toBe(80);
    await page.getByTestId('sidebar-collapse').click();
    await expect.poll(async () => (await navbar.boundingBox())?.width).toBe(288);

    // The create-campaign button: present on most pages, hidden on the four the spec lists.
    await expect(page.getByTestId('create-campaign')).toHaveAttribute('href', '/campanhas/criar-campanha');
    const hiddenOn: [entry: string, path: string][] = [
      ['lists', '/listas'],
      ['audios', '/audios'],
      ['rotatingLink', '/link-rotativo'],
    ];
    for (const [entry, path] of hiddenOn) {
      await page.getByTestId(`nav-${entry}`).click();
      await expect(page).toHaveURL(path);
      await expect(page.getByTestId('create-campaign')).toHaveCount(0);
    }
    await page.getByTestId('nav-shopping').click();
    await expect(page.getByTestId('create-campaign')).toBeVisible();

    // Admin-only pages (and enrichment without permission) send a regular user to `/`.
    for (const path of [
      '/usuarios',
      '/listas-enriquecidas-por-usuario',
      '/listas-enriquecidas',
      '/links',
      '/campanhas-por-usuario',
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL('/');
      await expect(page.getByTestId('nav-dashboard')).toHaveAttribute('aria-current', 'page');
    }

    // Pages whose features come later are titled with a friendly empty state.
    await page.goto('/audios');
    await expect(page.getByRole('heading', { name: 'Áudios' })).toBeVisible();
    await snap(page, 'shell-user-desktop-pt-light');
  });

  test('an administrator sees every entry and opens admin pages', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/campanhas-por-usuario');
    await expect(page).toHaveURL('/campanhas-por-usuario');
    expect(await sidebarEntries(page)).toEqual(ADMIN);
    await expect(page.getByTestId('nav-campaignsPerUser')).toHaveAttribute('aria-current', 'page');
    await page.getByTestId('nav-linksPerUser').click();
    await expect(page).toHaveURL('/links');
    await snap(page, 'shell-admin-desktop-pt-light');
  });

  test('enrichment opens for a user once an administrator grants it', async ({ page, browser }) => {
    const user = await signInWithApi(page);
    await dismissWelcome(page);
    await page.goto('/listas-enriquecidas');
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('nav-enrichment')).toHaveCount(0);

    const adminPage = await browser.newPage();
    await signInAsAdmin(adminPage);
    const adminToken = await adminPage.evaluate(() => localStorage.getItem('@legacy:token'));
    const me = await page.request.get('/api/me', { headers: { Authorization: `Bearer ${user.token}` } });
    const { id } = (await me.json()) as { id: string };
    const granted = await adminPage.request.patch(`/api/v1/admin/users/${id}`, {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: { permissions: { enriched: ['all'] } },
    });
    expect(granted.status(), await granted.text()).toBe(200);
    await adminPage.close();

    await page.goto('/listas-enriquecidas');
    await expect(page).toHaveURL('/listas-enriquecidas');
    await expect(page.getByTestId('nav-enrichment')).toHaveAttribute('aria-current', 'page');
  });

  test('logout asks first; "Fechar" keeps the session, "Sim, Sair" ends it', async ({ page }) => {
    const user = await signInWithApi(page);
    await dismissWelcome(page);
    await page.goto('/listas');

    await page.getByTestId('sidebar-logout').click();
    await expect(page.getByTestId('logout-question')).toHaveText('Tem certeza que deseja sair da plataforma?');
    await expect(page.getByTestId('logout-confirm')).toHaveText('Sim, Sair');
    await expect(page.getByTestId('logout-cancel')).toHaveText('Fechar');
    await snap(page, 'shell-logout-pt-light');
    await page.getByTestId('logout-cancel').click();
    await expect(page.getByTestId('logout-question')).toBeHidden();
    await expect(page.getByTestId('user-menu')).toBeVisible();

    // The same confirmation from the avatar menu; confirming revokes the token on the server.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.getByTestId('logout-confirm').click();
    await expect(page.getByTestId('login-email')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('@legacy:token'))).toBeNull();
    const me = await page.request.get('/api/me', { headers: { Authorization: `Bearer ${user.token}` } });
    expect(me.status()).toBe(401);
  });

  test('the support button opens the chat with a prefilled message and pushes "whatsapp"', async ({ page }) => {
    await signInWithApi(page);
    await dismissWelcome(page);
    await page.goto('/campanhas');
    const button = page.getByTestId('support-button');
    // The server's SUPPORT_WHATSAPP (playwright.config.ts), read by the page at run time.
    await expect(button).toHaveAttribute('href', /^https:\/\/wa\.me\/5521987654321\?text=/);
    const href = (await button.getAttribute('href')) ?? '';
    expect(decodeURIComponent(href.split('text=')[1] ?? '')).toContain('plataforma Ecoa');
    await expect(button).toHaveAttribute('target', '_blank');
    // Keep the click inside the test: no network to wa.me here.
    await page.context().route('https://wa.me/**', (route) => route.fulfill({ body: 'chat' }));
    const popup = page.waitForEvent('popup');
    await button.click();
    await (await popup).close();
    const events = await page.evaluate(() =>
      ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).map((e) => e.event),
    );
    expect(events).toContain('whatsapp');
  });
});

test.describe('welcome modal and onboarding', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('shows only on / for a new user until dismissed; a sidebar click also closes it', async ({ page }) => {
    await signInWithApi(page);
    await page.goto('/campanhas');
    await expect(page.getByTestId('onboarding-popover')).toBeVisible();
    await expect(page.getByText(WELCOME)).toHaveCount(0);

    await page.getByTestId('nav-dashboard').click();
    const modal = page.getByText(WELCOME);
    await expect(modal).toBeVisible();
    await snap(page, 'shell-welcome-pt-light');

    // A sidebar click closes it (and still navigates), like dismissing it.
    await page.getByTestId('nav-lists').click();
    await expect(page).toHaveURL('/listas');
    await expect(modal).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('closedModal'))).toBe('false');

    // Cleared flag: shown again on /; dismissing sets closedModal to 'false' and it stays closed.
    await page.evaluate(() => localStorage.removeItem('closedModal'));
    await page.goto('/');
    await expect(modal).toBeVisible();
    await page.getByTestId('welcome-close').click();
    await expect(modal).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('closedModal'))).toBe('false');
    await page.reload();
    await expect(page.getByTestId('nav-dashboard')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(WELCOME)).toHaveCount(0);

    // The onboarding popover (shown once the modal is gone), dismissed once, stays closed.
    await page.goto('/campanhas');
    const onboarding = page.getByTestId('onboarding-popover');
    await expect(onboarding).toBeVisible();
    await onboarding.getByRole('button').click();
    await expect(onboarding).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('create-campaign')).toBeVisible();
    await expect(onboarding).toHaveCount(0);
  });

  test('a user who is not new never sees it', async ({ page }) => {
    await signInAsAdmin(page); // the ADMIN_EMAIL account is created with isNewUser false
    await page.evaluate(() => localStorage.removeItem('closedModal'));
    await page.goto('/');
    await expect(page.getByTestId('nav-dashboard')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(WELCOME)).toHaveCount(0);
    await expect(page.getByTestId('onboarding-popover')).toHaveCount(0);
  });
});

test.describe('phone (375px)', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test('the sidebar is a drawer behind a floating button; the avatar toggles a menu', async ({ page }) => {
    await signInWithApi(page);
    await dismissWelcome(page);
    await page.goto('/campanhas');

    await expect(page.getByTestId('menu-button')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible();
    await expect(page.locator('.mantine-AppShell-navbar')).toHaveCount(0);
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await snap(page, 'shell-phone-pt-light');
    await openDrawer(page);
    await expect(page.getByTestId('sidebar-collapse')).toHaveCount(0);
    await snap(page, 'shell-phone-drawer-pt-light');
    await page.getByTestId('nav-audios').click();
    await expect(page).toHaveURL('/audios');
    await expect(page.getByTestId('sidebar')).toBeHidden();

    await page.getByTestId('user-menu').click();
    const menu = page.getByTestId('mobile-user-menu');
    await expect(menu.getByTestId('menu-logout')).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Configurações' })).toHaveAttribute('href', '/configuracoes');
    await menu.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.getByTestId('user-menu').click();
    await expect(menu.getByTestId('menu-logout')).toBeHidden();
  });
});

test('the shell in three languages and two themes, desktop and phone', async ({ page }) => {
  test.setTimeout(60_000);
  await useOwnNetwork(page.context());
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsAdmin(page);
  await page.goto('/campanhas');
  const shots: [string, string, RegExp][] = [
    ['pt', 'Português', /Campanhas/],
    ['en', 'English', /Campaigns/],
    ['cn', '简体中文', /营销活动/],
  ];
  for (const [code, name, heading] of shots) {
    await switchLanguage(page, name);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    for (const theme of ['light', 'dark']) {
      const current = await page.locator('html').getAttribute('data-mantine-color-scheme');
      if (current !== theme) await toggleTheme(page);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await page.setViewportSize({ width: 1280, height: 800 });
      await snap(page, `shell-desktop-${code}-${theme}`);
      await page.setViewportSize({ width: 375, height: 740 });
      await openDrawer(page);
      await snap(page, `shell-phone-drawer-${code}-${theme}`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('sidebar')).toBeHidden();
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }
});
