import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { signInWithApi, useOwnNetwork } from './auth.test-support';
import { closeOnboarding, inEveryLook, snap } from './screens.test-support';

/** The customer's system on loopback (a local trial allows it): every post, verified with `standardwebhooks`. */
async function startReceiver() {
  const posts: { id: string; type: string; verified: boolean }[] = [];
  const state = { secret: '', status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(state.secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {}
      posts.push({ id: String(req.headers['webhook-id']), type: JSON.parse(body).type, verified });
      res.writeHead(state.status).end(state.status === 200 ? 'recebido' : 'indisponível');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ecoa/webhooks`;
  return { url, posts, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function openRowMenu(page: Page, item: string): Promise<void> {
  await page.getByTestId('webhook-row-menu').click();
  await page.getByTestId(item).click();
}

test.beforeEach(async ({ context }) => {
  await useOwnNetwork(context);
});

test.use({ viewport: { width: 1280, height: 900 } });

test('webhooks: create with a secret shown once, test event verified by standardwebhooks, log, replay, rotate, disable, delete', async ({
  page,
}) => {
  // Six looks, two modals each, on a busy 2-core machine.
  test.setTimeout(600_000);
  const receiver = await startReceiver();
  try {
    await signInWithApi(page);
    await page.evaluate(() => localStorage.setItem('closedModal', 'false'));
    await page.waitForLoadState('networkidle');
    await page.goto('/configuracoes');
    // The signed-in frame is a lazy chunk: on a busy machine it may take a while.
    await expect(page.getByTestId('settings-page')).toBeVisible({ timeout: 60_000 });
    await closeOnboarding(page);
    await expect(page.getByTestId('webhooks-empty')).toBeVisible();

    // Create: a bad address is refused with its reason; then the real one.
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill('ftp://x');
    await page.getByTestId('webhook-save').click();
    await expect(page.getByText('Informe um endereço https:// válido.')).toBeVisible();
    await page.getByTestId('webhook-url').fill(receiver.url);
    await page.getByTestId('webhook-event-campaign.status').check();
    await page.getByTestId('webhook-description').fill('ERP da padaria');
    await page.getByTestId('webhook-save').click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    receiver.state.secret = secret;
    await snap(page, 'webhooks-secret-pt-light');
    await page.getByTestId('webhook-secret-done').click();
    await expect(page.getByTestId('webhook-row')).toHaveCount(1);
    await expect(page.getByTestId('webhook-row-url')).toHaveText(receiver.url);
    await expect(page.getByTestId('webhook-row')).not.toContainText('whsec_');

    // A test event reaches the receiver, signed; the log says so.
    await openRowMenu(page, 'webhook-row-test');
    await expect.poll(() => receiver.posts.length, { timeout: 15_000 }).toBe(1);
    expect(receiver.posts[0]).toMatchObject({ type: 'webhook.test', verified: true });
    await page.getByTestId('webhook-row-log').click();
    await expect(page.getByTestId('webhook-delivery-row')).toHaveCount(1);
    await expect(page.getByTestId('webhook-delivery-row')).toHaveAttribute('data-status', 'succeeded');
    await expect(page.getByTestId('webhook-delivery-code')).toHaveText('200');

    // Replay it: the same event id again (receivers deduplicate on it).
    await page.getByTestId('webhook-delivery-replay').click();
    await expect.poll(() => receiver.posts.length, { timeout: 15_000 }).toBe(2);
    expect(receiver.posts[1]!.id).toBe(receiver.posts[0]!.id);

    // The receiver fails: the log shows the 503 and the retry pending.
    receiver.state.status = 503;
    await page.keyboard.press('Escape');
    await openRowMenu(page, 'webhook-row-test');
    await expect.poll(() => receiver.posts.length, { timeout: 15_000 }).toBe(3);
    await page.getByTestId('webhook-row-log').click();
    await expect(page.locator('[data-testid="webhook-delivery-row"][data-status="pending"]')).toHaveCount(1, {
      timeout: 15_000,
    });
    await expect(page.getByTestId('webhook-delivery-code').first()).toHaveText('503');
    await page.getByTestId('webhook-replay-since').click();
    // Nothing failed for good yet (the 503 is still being retried): nothing to replay.
    await expect(page.getByText(/^0 entregas? reenviadas?\.$/)).toBeVisible();
    await page.keyboard.press('Escape');

    await inEveryLook(page, async (look) => {
      await snap(page, `webhooks-${look}`);
      await page.getByTestId('webhook-row-log').click();
      await expect(page.getByTestId('webhook-delivery-row')).toHaveCount(2);
      await snap(page, `webhooks-log-${look}`);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('webhook-log')).toBeHidden();
    });

    // Rotate: a new secret, shown once; the old one still signs beside it.
    await openRowMenu(page, 'webhook-row-rotate');
    await page.getByTestId('webhook-rotate-confirm').click();
    const rotated = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByTestId('webhook-secret-done').click();
    receiver.state.status = 200;
    receiver.state.secret = rotated;
    const seen = new Set(receiver.posts.map((p) => p.id));
    await openRowMenu(page, 'webhook-row-test');
    await expect
      .poll(() => receiver.posts.find((p) => !seen.has(p.id) && p.type === 'webhook.test')?.verified, {
        timeout: 15_000,
      })
      .toBe(true);

    // Disable, then delete.
    // Mantine's switch input sits under its track (force: the click a person makes on the track);
    // it is controlled, so it turns off once the server said so.
    await page.getByTestId('webhook-row-enabled').click({ force: true });
    await expect(page.getByTestId('webhook-row-enabled')).not.toBeChecked();
    await expect(page.getByTestId('webhook-row')).not.toHaveAttribute('data-enabled');
    await openRowMenu(page, 'webhook-row-delete');
    await page.getByTestId('webhook-delete-confirm').click();
    await expect(page.getByTestId('webhooks-empty')).toBeVisible();
  } finally {
    await receiver.close();
  }
});
