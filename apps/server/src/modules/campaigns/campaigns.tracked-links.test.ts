import { analyzeSms } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndSignIn } from '../../../test/factories.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { api, importList, mobile, startCampaignsServer } from './campaigns.test-support.ts';

/** A campaign's `{link}`: each recipient's own short address, clicks and click-through in the report. */
describe('campaigns: tracked links', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startCampaignsServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const smsc = () => server.providers.simulators.smsc!;
  const click = (path: string, i: number) =>
    server.app.inject({
      method: 'GET',
      url: path,
      remoteAddress: `10.3.0.${i}`,
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)' },
    });

  it('gives each recipient its own address, counts who clicked, and shows it in the report and export', async () => {
    const user = await userWithCredits(server, 50);
    const c = api(server, user.token);
    const people = [mobile(), mobile(), mobile()];
    const list = await importList(
      server,
      user.token,
      people.map((phone, i) => ({ phone, name: `Cliente ${i}` })),
    );
    const missing = await c.create({
      name: 'Sem destino',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Veja {link}' },
    });
    expect((await c.estimate(missing)).problems.map((p) => p.code)).toContain('TRACKED_LINK_MISSING');

    const text = 'Oferta de Natal, {nome}: {link}';
    const id = await c.create({
      name: 'Natal',
      channel: 'sms_short',
      listIds: [list],
      content: { text, trackedLink: { url: 'https://ecoa.example.com/natal' } },
    });
    const estimate = await c.estimate(id);
    expect(estimate.problems).toEqual([]);
    smsc().reset();
    await c.move(id, 'start');
    const done = await c.waitFor(id);
    expect(done.counts.delivered).toBe(3);
    const texts = smsc()
      .records()
      .map((r) => r.text);
    const prefix = `${server.config.publicUrl}/l/_`;
    const codes = texts.map((t) => new RegExp(`${prefix.replace(/[/.]/g, '\\$&')}([0-9A-Za-z]{10})$`).exec(t)?.[1]);
    expect(codes.every(Boolean)).toBe(true);
    expect(new Set(codes).size).toBe(3);
    // The parts estimated are the parts sent: the link is counted at its real length.
    expect(estimate.parts).toBe(texts.reduce((n, t) => n + analyzeSms(t).parts.length, 0));

    const [a, b] = codes as string[];
    for (const [code, i] of [
      [a, 1],
      [a, 2],
      [b, 3],
    ] as const) {
      const res = await click(`/l/_${code}`, i);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://ecoa.example.com/natal');
    }
    expect((await click('/l/_AAAAAAAAAA', 9)).statusCode).toBe(404);
    await server.modules.linkClicks.close();
    const report = await c.get(id);
    expect(report.clicks).toEqual({ total: 3, recipients: 2, rate: 0.6667 });
    const recipients = (await c.call('GET', `/api/v1/campaigns/${id}/messages`)).json().items as { clicks: number }[];
    expect(recipients.map((r) => r.clicks).sort()).toEqual([0, 1, 2]);
    const csv = (await c.call('GET', `/api/v1/campaigns/${id}/export`)).body;
    expect(csv).toContain('cliques');
  });

  it('a tracked rotating link takes its turn and counts in the link’s stats; someone else’s link is refused', async () => {
    const user = await userWithCredits(server, 50);
    const c = api(server, user.token);
    const link = await server.modules.links.create(user.id, {
      name: 'Equipe',
      slug: `equipe-${user.id.slice(0, 8)}`,
      mode: 'round_robin',
      targets: [
        { kind: 'url', url: 'https://ecoa.example.com/ana' },
        { kind: 'url', url: 'https://ecoa.example.com/bia' },
      ],
    });
    const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }]);
    const id = await c.create({
      name: 'Equipe',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Fale conosco: {link}', trackedLink: { rotatingLinkId: link.id } },
    });
    smsc().reset();
    await c.move(id, 'start');
    await c.waitFor(id);
    const codes = smsc()
      .records()
      .map((r) => /\/l\/_([0-9A-Za-z]{10})$/.exec(r.text)![1]);
    const places = [];
    for (const [i, code] of codes.entries()) places.push((await click(`/l/_${code}`, 20 + i)).headers.location);
    expect(places.sort()).toEqual(['https://ecoa.example.com/ana', 'https://ecoa.example.com/bia']);
    await server.modules.linkClicks.close();
    expect((await server.modules.links.get(user.id, link.id)).clicks).toBe(2);
    expect((await c.get(id)).clicks).toMatchObject({ total: 2, recipients: 2 });

    const stranger = await signUpAndSignIn(server);
    const other = await api(server, stranger.token).create({
      name: 'Alheio',
      channel: 'sms_short',
      listIds: [],
      content: { text: 'Veja {link}', trackedLink: { rotatingLinkId: link.id } },
    });
    expect((await api(server, stranger.token).estimate(other)).problems.map((p) => p.code)).toContain(
      'TRACKED_LINK_NOT_FOUND',
    );
  });
});
