import { describe, expect, it } from 'vitest';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { campaignsUser, importList, mobile } from '../campaigns/campaigns.test-support.ts';
import { openServerWithReceiver, type Receiver, subscribeReceiver } from './webhooks.test-support.ts';

/**
 * `link.click`: a visitor's click through the real hop (`/l/_<code>`, `/l/<slug>`) reaches the
 * link owner's receiver once, signed, with where it led and the recipient it was sent to; a
 * link preview (no click) reaches nobody.
 */
describe(`link.click webhooks (${dbKind})`, () => {
  let server: RunningServer;
  let receiver: Receiver;
  openServerWithReceiver((opened) => ({ server, receiver } = opened));

  const clicks = () => receiver.received.filter((w) => w.payload.type === 'link.click');
  const visit = (path: string, i: number, userAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)') =>
    server.app.inject({ method: 'GET', url: path, remoteAddress: `10.7.0.${i}`, headers: { 'user-agent': userAgent } });

  it('reports a tracked link click with its campaign, message and recipient, and a rotating link click with its slug', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
    const created = await subscribeReceiver(server, user.token, receiver, ['link.click']);
    expect(created.statusCode, created.body).toBe(201);

    const phone = mobile();
    const list = await importList(server, user.token, [{ phone }]);
    const id = await c.create({
      name: 'Natal',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Oferta: {link}', trackedLink: { url: 'https://ecoa.example.com/natal' } },
    });
    server.providers.simulators.smsc!.reset();
    await c.move(id, 'start');
    await c.waitFor(id);
    const [sent] = server.providers.simulators.smsc!.records();
    const code = /\/l\/_([0-9A-Za-z]{10})$/.exec(sent!.text)![1];
    const { rows: messages } = await server.db.executeSql('select id from messages where campaign_id = $1', [id]);

    const tracked = await visit(`/l/_${code}`, 1);
    expect(tracked.statusCode).toBe(302);
    // A link preview (WhatsApp drawing its card) is no click: no event.
    expect((await visit(`/l/_${code}`, 2, 'WhatsApp/2.23.20.0')).statusCode).toBe(302);

    const link = await server.modules.links.create(user.id, {
      name: 'Equipe',
      slug: `equipe-${user.id.slice(0, 8)}`,
      mode: 'round_robin',
      targets: [{ kind: 'url', url: 'https://ecoa.example.com/ana' }],
    });
    expect((await visit(`/l/${link.slug}`, 3)).headers.location).toBe('https://ecoa.example.com/ana');

    await until(() => clicks().length >= 2);
    await server.modules.linkClicks.close();
    // Nothing more on its way: one event per click.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(clicks()).toHaveLength(2);
    const byLink = (linkId: string | null) => clicks().find((w) => w.payload.data.linkId === linkId)!;
    expect(byLink(null).payload.data).toEqual({
      linkId: null,
      slug: null,
      url: 'https://ecoa.example.com/natal',
      campaignId: id,
      messageId: (messages[0] as { id: string }).id,
      to: phone,
      at: expect.any(String),
    });
    expect(byLink(link.id).payload.data).toEqual({
      linkId: link.id,
      slug: link.slug,
      url: 'https://ecoa.example.com/ana',
      campaignId: null,
      messageId: null,
      to: null,
      at: expect.any(String),
    });
    expect(clicks().every((w) => w.verifiedBy === 0 && w.id === w.payload.id)).toBe(true);
    expect(new Set(clicks().map((w) => w.id)).size).toBe(2);
    // Each event was written with its click (one transaction): as many events as clicks.
    const { rows } = await server.db.executeSql(
      `select (select count(*)::int from link_clicks where campaign_id = $1 or link_id = $2) as clicks,
         (select count(*)::int from webhook_events where user_id = $3 and type = 'link.click') as events`,
      [id, link.id, user.id],
    );
    expect(rows).toEqual([{ clicks: 2, events: 2 }]);
  }, 90_000);
});

async function until(done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
