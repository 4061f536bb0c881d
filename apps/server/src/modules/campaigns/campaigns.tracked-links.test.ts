import { analyzeSms } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { api, campaignsUser, importList, mobile, smsCampaign, startCampaignsServer } from './campaigns.test-support.ts';

/** A campaign's `{link}`: each recipient's own short address, clicks and click-through in the report. */
describe('campaigns: tracked links', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));
  const smsc = () => server.providers.simulators.smsc!;
  const click = (path: string, i: number) =>
    server.app.inject({
      method: 'GET',
      url: path,
      remoteAddress: `10.3.0.${i}`,
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)' },
    });

  it('gives each recipient its own address, counts who clicked, and shows it in the report and export', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
    const people = [mobile(), mobile(), mobile()];
    const list = await importList(
      server,
      user.token,
      people.map((phone, i) => ({ phone, name: `Cliente ${i}` })),
    );
    const missing = await c.create(smsCampaign('Sem destino', list, 'Veja {link}'));
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
    const who = async (clicked: string) =>
      (
        (await c.call('GET', `/api/v1/campaigns/${id}/messages?clicked=${clicked}`)).json().items as {
          clicks: number;
        }[]
      )
        .map((r) => r.clicks)
        .sort();
    expect(await who('true')).toEqual([1, 2]);
    expect(await who('false')).toEqual([0]);
    // The export says who clicked, and each recipient's own address.
    const csv = (await c.call('GET', `/api/v1/campaigns/${id}/export`)).body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    const header = csv[0]!.split(';');
    const rows = csv.slice(1).map((line) => line.split(';'));
    const column = (name: string) => rows.map((r) => r[header.indexOf(name)]);
    expect(column('cliques').sort()).toEqual(['0', '1', '2']);
    expect(column('link').sort()).toEqual(codes.map((code) => `${prefix}${code}`).sort());
  });

  it('a tracked rotating link takes its turn and counts in the link’s stats; someone else’s link is refused', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
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

  it('administrators list campaigns’ tracked links and turn one off (the friendly page), audited', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
    const list = await importList(server, user.token, [{ phone: mobile() }]);
    const id = await c.create({
      name: `Golpe ${user.id.slice(0, 6)}`,
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Ganhe: {link}', trackedLink: { url: 'https://ecoa.example.com/premio' } },
    });
    smsc().reset();
    await c.move(id, 'start');
    await c.waitFor(id);
    const code = /\/l\/_([0-9A-Za-z]{10})$/.exec(smsc().records()[0]!.text)![1]!;
    expect((await click(`/l/_${code}`, 40)).statusCode).toBe(302);
    await server.modules.linkClicks.close();

    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const as = (token: string, method: 'GET' | 'PATCH', url: string, payload?: object) =>
      injectAs(server, token, { method, url, ...(payload ? { payload } : {}) });
    expect((await as(user.token, 'GET', '/api/v1/admin/links/tracked')).statusCode).toBe(403);
    const listed = await as(
      admin.token,
      'GET',
      `/api/v1/admin/links/tracked?q=${encodeURIComponent(`Golpe ${user.id.slice(0, 6)}`)}`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().items).toEqual([
      expect.objectContaining({
        id,
        campaign: expect.objectContaining({ name: `Golpe ${user.id.slice(0, 6)}`, status: 'COMPLETED' }),
        destination: { rotatingLink: null, url: 'https://ecoa.example.com/premio' },
        user: expect.objectContaining({ id: user.id }),
        recipients: 1,
        clicks: 1,
        clickers: 1,
        disabled: false,
      }),
    ]);

    expect((await as(admin.token, 'PATCH', `/api/v1/admin/links/tracked/${id}`, { disabled: true })).statusCode).toBe(
      400,
    );
    const off = await as(admin.token, 'PATCH', `/api/v1/admin/links/tracked/${id}`, {
      disabled: true,
      reason: 'phishing',
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ disabled: true, disabledReason: 'phishing' });
    const hop = await click(`/l/_${code}`, 41);
    expect(hop.statusCode).toBe(404);
    expect(hop.headers['content-type']).toContain('text/html');
    const on = await as(admin.token, 'PATCH', `/api/v1/admin/links/tracked/${id}`, { disabled: false });
    expect(on.json()).toMatchObject({ disabled: false, disabledReason: null });
    expect((await click(`/l/_${code}`, 42)).headers.location).toBe('https://ecoa.example.com/premio');
    const { rows } = await server.db.executeSql(
      "select action from audit_log where subject_type = 'campaign' and subject_id = $1 order by created_at",
      [id],
    );
    expect(rows).toEqual([{ action: 'tracked_link.disable' }, { action: 'tracked_link.enable' }]);
  });
});
