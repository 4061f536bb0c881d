import type { WebhookDelivery } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestMailTo, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { asUser } from '../../../test/http.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import { createManualClock, type ManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { type Receiver, startReceiver } from './webhooks.test-support.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Deliveries against receivers on loopback, the clock moved by the test (`drain()` posts what is
 * due now): signatures checked by the `standardwebhooks` package, outages, retries, rotation,
 * disable after 3 days, replays, and a slow receiver beside a fast one.
 */
describe(`webhook deliveries (${dbKind})`, () => {
  let server: RunningServer;
  let clock: ManualClock;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    clock = createManualClock();
    // A database of its own on PostgreSQL: no other file's delivery loop (on the real clock) takes these rows.
    server = await createTestServer({ work: false, clock, isolated: true });
  });
  afterAll(async () => {
    await server?.close();
    for (const r of receivers) await r.close();
  });

  async function receiver(options: { strictTimestamp?: boolean } = {}) {
    const r = await startReceiver(options);
    receivers.push(r);
    return r;
  }

  async function account(r: Receiver, events: string[] = ['message.status']) {
    // Remembered: the tests move the clock days ahead (a 12 h session would end).
    const { token, user, email } = await signUpAndSignIn(server, { remainLogin: true });
    const as = asUser(server, token);
    const res = await as({ method: 'POST', url: '/api/v1/webhook-endpoints', payload: { url: r.url, events } });
    expect(res.statusCode, res.body).toBe(201);
    const endpoint = res.json() as { id: string; secret: string };
    r.secrets = [endpoint.secret];
    return { as, userId: user.id, email, endpoint };
  }

  const status = (n: number) => ({
    messageId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    channel: 'sms_short' as const,
    to: '+5511987654321',
    status: 'delivered' as const,
    reason: null,
    parts: 1,
    campaignId: null,
    at: clock.now().toISOString(),
  });

  const drain = () => server.modules.webhooks.deliverer.drain();

  async function log(as: ReturnType<typeof asUser>, endpointId: string): Promise<WebhookDelivery[]> {
    const res = await as({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpointId}/deliveries?limit=100` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().items;
  }

  it('signs every post the Standard Webhooks way: the standardwebhooks package verifies it, webhook-id is the event id', async () => {
    clock.set(new Date());
    const r = await receiver({ strictTimestamp: true });
    const { as, userId, endpoint } = await account(r, ['message.status', 'campaign.status']);
    const eventId = await server.modules.webhooks.publish(userId, 'message.status', status(1));
    expect(eventId).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    // Not subscribed: nothing written.
    expect(await server.modules.webhooks.publish(userId, 'message.reply', {} as never)).toBeNull();
    await drain();
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(got).toMatchObject({ id: eventId, verifiedBy: 0 });
    expect(got!.payload).toEqual({
      id: eventId,
      type: 'message.status',
      createdAt: clock.now().toISOString(),
      data: status(1),
    });
    expect(got!.signatures).toHaveLength(1);
    expect(got!.signatures[0]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // The test event too.
    const test = await as({ method: 'POST', url: `/api/v1/webhook-endpoints/${endpoint.id}/test` });
    expect(test.statusCode).toBe(202);
    await drain();
    expect(r.received[1]).toMatchObject({ id: test.json().eventId, payload: { type: 'webhook.test' }, verifiedBy: 0 });
    const entries = await log(as, endpoint.id);
    expect(entries.map((d) => [d.status, d.attempts, d.lastStatusCode, d.lastResponse])).toEqual([
      ['succeeded', 1, 200, 'ok'],
      ['succeeded', 1, 200, 'ok'],
    ]);
  });

  it('a receiver down for 10 minutes then up gets every event exactly once per event id', async () => {
    const r = await receiver();
    const { as, userId, endpoint } = await account(r);
    r.mode = 'down';
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push((await server.modules.webhooks.publish(userId, 'message.status', status(i)))!);
    const upAt = clock.now().getTime() + 10 * MINUTE;
    while (clock.now().getTime() < upAt) {
      await drain();
      clock.advance(30_000);
    }
    expect(r.received).toHaveLength(0);
    r.mode = 'up';
    // Backoff: within the next hour every event comes.
    for (let i = 0; i < 120 && r.received.length < ids.length; i++) {
      await drain();
      clock.advance(30_000);
    }
    await drain();
    expect(r.received.map((w) => w.id).sort()).toEqual([...ids].sort());
    expect(new Set(r.received.map((w) => w.id)).size).toBe(ids.length);
    expect(r.received.every((w) => w.verifiedBy === 0)).toBe(true);
    const entries = await log(as, endpoint.id);
    expect(entries.every((d) => d.status === 'succeeded' && d.attempts > 1)).toBe(true);
    expect(entries[0]!.lastError).toBeNull();
  }, 240_000);

  it('retries with growing waits, each attempt logged with its error; the schedule stays in its jittered bounds', async () => {
    const r = await receiver();
    const { as, userId, endpoint } = await account(r);
    r.mode = 'error';
    await server.modules.webhooks.publish(userId, 'message.status', status(1));
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      await drain();
      const [d] = await log(as, endpoint.id);
      expect(d).toMatchObject({ status: 'pending', attempts: i + 1, lastStatusCode: 503, lastResponse: 'busy' });
      const wait = new Date(d!.nextAttemptAt!).getTime() - clock.now().getTime();
      waits.push(wait);
      clock.advance(wait);
    }
    waits.forEach((w, i) => {
      const base = 30_000 * 2 ** i;
      expect(w).toBeGreaterThanOrEqual(base * 0.75);
      expect(w).toBeLessThanOrEqual(base * 1.25);
    });
    r.mode = 'up';
    await drain();
    expect((await log(as, endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempts: 7 });
    expect(r.received).toHaveLength(1);
  }, 120_000);

  it('a rotated secret keeps signing beside the new one for 24 hours, then only the new one signs', async () => {
    const r = await receiver();
    const { as, userId, endpoint } = await account(r);
    const old = endpoint.secret;
    const rotated = await as({ method: 'POST', url: `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret` });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.json().previousSecretExpiresAt).toBe(new Date(clock.now().getTime() + DAY).toISOString());

    await server.modules.webhooks.publish(userId, 'message.status', status(1));
    await drain();
    expect(r.received[0]!.signatures).toHaveLength(2);
    expect(r.received[0]!.verifiedBy).toBe(0); // the receiver still knows only the old secret
    r.secrets = [fresh];
    await server.modules.webhooks.publish(userId, 'message.status', status(2));
    await drain();
    expect(r.received[1]!.verifiedBy).toBe(0);

    clock.advance(DAY + 1000);
    r.secrets = [old, fresh];
    await server.modules.webhooks.publish(userId, 'message.status', status(3));
    await drain();
    expect(r.received[2]!.signatures).toHaveLength(1);
    expect(r.received[2]!.verifiedBy).toBe(1);
    r.secrets = [old];
    await server.modules.webhooks.publish(userId, 'message.status', status(4));
    await drain();
    expect(r.received[3]!.verifiedBy).toBe(-1);
  });

  it('an endpoint failing for 3 days is disabled and the account e-mailed; replays send the failed ones again', async () => {
    const r = await receiver();
    const { as, userId, email, endpoint } = await account(r);
    r.mode = 'error';
    const first = await server.modules.webhooks.publish(userId, 'message.status', status(1));
    clock.advance(MINUTE);
    const second = await server.modules.webhooks.publish(userId, 'message.status', status(2));
    const start = clock.now().getTime();
    for (let i = 0; i < 200; i++) {
      await drain();
      const pending = (await log(as, endpoint.id)).filter((d) => d.status === 'pending');
      if (pending.length === 0) break;
      clock.set(new Date(Math.min(...pending.map((d) => new Date(d.nextAttemptAt!).getTime()))));
    }
    expect(clock.now().getTime() - start).toBeGreaterThanOrEqual(3 * DAY - MINUTE);
    const entries = await log(as, endpoint.id);
    expect(entries.map((d) => d.status)).toEqual(['failed', 'failed']);
    expect(entries[0]!.attempts).toBeGreaterThan(10);
    const after = (await as({ method: 'GET', url: `/api/v1/webhook-endpoints/${endpoint.id}` })).json();
    expect(after).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const mail = latestMailTo(server, email);
    expect(mail).toContain('webhook desativado');
    expect(mail).toContain(r.url.replace(/^http:\/\//, ''));

    // Fixed and enabled again: one replayed by itself, the rest by "every failed since".
    r.mode = 'up';
    const enabled = await as({
      method: 'PATCH',
      url: `/api/v1/webhook-endpoints/${endpoint.id}`,
      payload: { enabled: true },
    });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    const one = entries.find((d) => d.eventId === first)!;
    expect((await as({ method: 'POST', url: `/api/v1/webhook-deliveries/${one.id}/replay` })).statusCode).toBe(202);
    await drain();
    expect(r.received.map((w) => w.id)).toEqual([first]);
    const since = await as({
      method: 'POST',
      url: `/api/v1/webhook-endpoints/${endpoint.id}/replay`,
      payload: { since: new Date(start - DAY).toISOString() },
    });
    expect(since.json()).toEqual({ replayed: 1 });
    await drain();
    expect(r.received.map((w) => w.id)).toEqual([first, second]);
    expect((await log(as, endpoint.id)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
  }, 240_000);

  it('a slow receiver holds only its own slots: another endpoint gets everything meanwhile', async () => {
    const slow = await receiver();
    const fast = await receiver();
    const a = await account(slow);
    const b = await account(fast);
    slow.mode = 'slow';
    for (let i = 0; i < 12; i++) {
      await server.modules.webhooks.publish(a.userId, 'message.status', status(i));
      await server.modules.webhooks.publish(b.userId, 'message.status', status(i));
    }
    const deliverer = server.modules.webhooks.deliverer;
    deliverer.start();
    try {
      await until(() => fast.received.length === 12);
      expect(slow.held()).toBeLessThanOrEqual(4);
      expect(slow.received).toHaveLength(0);
      slow.mode = 'up';
      for (let i = 0; i < 100 && slow.received.length < 12; i++) {
        slow.release();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await until(() => slow.received.length === 12);
    } finally {
      await deliverer.stop();
    }
    expect(new Set(slow.received.map((w) => w.id)).size).toBe(12);
  });
});

async function until(done: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
