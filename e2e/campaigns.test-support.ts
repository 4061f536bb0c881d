/** Campaign set-up the campaign and link specs share: a list imported through the API, the wizard's window. */
import { expect, type Page } from '@playwright/test';
import { signInAsAdmin } from './auth.test-support';

/** A random São Paulo mobile number (9 + 8 digits). */
const phone = () => `119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export async function importList(page: Page, token: string, name: string, count: number): Promise<string> {
  const rows = Array.from({ length: count }, (_, i) => `${phone()};Cliente ${i + 1}`);
  const res = await page.request.post('/api/v1/lists', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      name,
      file: { name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(`telefone;nome\n${rows.join('\n')}\n`) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/v1/lists/${id}`, { headers: { Authorization: `Bearer ${token}` } })
          ).json()) as { status: string }
        ).status,
      { timeout: 30_000 },
    )
    .toBe('ready');
  return id;
}

/** The wizard's "when" step: every day, all day (the default window would make a night or Sunday CI wait). */
export async function openWindowAllDay(page: Page) {
  await page.getByText(/^(Dom|Sun|周日)$/).click();
  await page.getByLabel(/^(De|From|从)$/).fill('00:00');
  await page.getByLabel(/^(Até|Until|到)$/).fill('23:59');
}

/** Credits given by the administrator (an adjustment per type), the user's session left in the page. */
export async function giveCredits(page: Page, userToken: string, credits: Record<string, number>): Promise<void> {
  const me = await (await page.request.get('/api/me', { headers: { Authorization: `Bearer ${userToken}` } })).json();
  const userInPage = await page.evaluate(() => localStorage.getItem('@legacy:token'));
  const admin = await signInAsAdmin(page);
  await page.evaluate((value) => localStorage.setItem('@legacy:token', value ?? ''), userInPage);
  for (const [type, amount] of Object.entries(credits)) {
    const res = await page.request.post(`/api/v1/admin/users/${me.id}/adjustments`, {
      headers: { Authorization: `Bearer ${admin}` },
      data: { type, amount, reason: 'créditos de teste e2e' },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}
