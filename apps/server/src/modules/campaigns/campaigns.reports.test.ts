import { describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { api, campaignsUser, importList, mobile, smsCampaign, startCampaignsServer } from './campaigns.test-support.ts';

describe('campaign reports, the dashboard and the administrators’ list', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));

  it('lists campaigns with progress, pages recipients, exports CSV, draws the timeline, fills the dashboard', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
    const home = async () =>
      (
        await server.app.inject({ method: 'GET', url: '/api/v1/dashboard/summary', headers: bearer(user.token) })
      ).json();
    expect((await home()).firstSteps).toEqual({ hasList: false, hasCredits: true, hasCampaign: false });

    const phones = [mobile(), mobile(), mobile()];
    const list = await importList(server, user.token, [
      { phone: phones[0]!, name: '=HYPERLINK("http://x")' },
      { phone: phones[1]!, name: 'Bia "Souza"' },
      { phone: phones[2]!, name: 'Caio' },
    ]);
    const draft = await c.create({ name: 'Rascunho', channel: 'sms_short', listIds: [list], content: { text: 'Oi' } });
    const id = await c.create(smsCampaign('Black Friday', list, 'Oi {nome}'));
    await c.move(id, 'start');
    await c.waitFor(id);

    const page = (await c.call('GET', '/api/v1/campaigns?pageSize=1')).json();
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(page.items[0]).toMatchObject({
      id,
      status: 'COMPLETED',
      total: 3,
      done: 3,
      sent: 3,
      delivered: 3,
      failed: 0,
      // Every receipt in: nothing for the screens to wait for.
      awaiting: 0,
      creditsUsed: 3,
    });
    // The progress is the tallies' (issue 24), not a count of the rows: a difference written there shows.
    const nudge = (n: number) =>
      server.db.executeSql(
        `insert into message_tallies (user_id, campaign_id, channel, day, status, submitted, reason, n)
         values ($1, $2, 'sms_short', current_date, 'delivered', true, null, $3)`,
        [user.id, id, n],
      );
    await nudge(2);
    const nudged = (await c.call('GET', '/api/v1/campaigns?pageSize=1')).json().items[0];
    expect(nudged).toMatchObject({ done: 5, sent: 5, delivered: 5 });
    expect((await c.call('GET', `/api/v1/campaigns/${id}`)).json().counts.delivered).toBe(5);
    await nudge(-2);
    // Past the last page: no items, and still how many there are.
    expect((await c.call('GET', '/api/v1/campaigns?page=9&pageSize=1')).json()).toMatchObject({ total: 2, items: [] });
    const drafts = (await c.call('GET', '/api/v1/campaigns?status=DRAFT')).json();
    expect(drafts.items.map((x: { id: string }) => x.id)).toEqual([draft]);
    expect((await c.call('GET', '/api/v1/campaigns?q=black')).json().total).toBe(1);

    const recipients = (await c.call('GET', `/api/v1/campaigns/${id}/messages?status=delivered&pageSize=2`)).json();
    expect(recipients).toMatchObject({ total: 3, pageSize: 2 });
    expect(recipients.items[0]).toMatchObject({ status: 'delivered', parts: 1, reason: null });
    const one = (await c.call('GET', `/api/v1/campaigns/${id}/messages?q=${phones[2]!.slice(-8)}`)).json();
    expect(one.items).toHaveLength(1);
    expect(one.items[0]).toMatchObject({ to: phones[2], name: 'Caio' });

    // Each row of a page shows its own last URA key step and its clicks, and no other row's.
    const caio = one.items[0].id as string;
    await server.db.executeSql(
      `insert into message_events (message_id, status, detail, at) values
         ($1, 'delivered', '{"digits":"1"}', now() - interval '1 minute'), ($1, 'delivered', '{"digits":"2"}', now())`,
      [caio],
    );
    await server.db.executeSql(
      `insert into link_clicks (message_id, campaign_id, at, device, visitor)
       values ($1, $2, now(), 'mobile', 'a'), ($1, $2, now(), 'desktop', 'b')`,
      [caio, id],
    );
    const all = (await c.call('GET', `/api/v1/campaigns/${id}/messages?pageSize=3`)).json().items as {
      id: string;
      digits: string | null;
      clicks: number;
    }[];
    expect(all.map((x) => [x.id === caio, x.digits, x.clicks])).toEqual(
      all.map((x) => (x.id === caio ? [true, '2', 2] : [false, null, 0])),
    );
    expect(all.filter((x) => x.id === caio)).toHaveLength(1);

    const csv = await c.call('GET', `/api/v1/campaigns/${id}/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('Black Friday-destinatarios.csv');
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(csv.body.startsWith('\ufeff')).toBe(true);
    expect(lines[0]).toBe('telefone;nome;status;motivo;partes;digitos;cliques;link;enviado em;finalizado em');
    expect(lines).toHaveLength(4);
    expect(csv.body).toContain(`'=HYPERLINK`);
    expect(csv.body).toContain('"Bia ""Souza"""');

    const timeline = (await c.call('GET', `/api/v1/campaigns/${id}/timeline`)).json();
    expect(timeline.bucket).toBe('second');
    const sum = (k: 'sent' | 'delivered') =>
      timeline.points.reduce((n: number, p: Record<string, number>) => n + p[k]!, 0);
    expect([sum('sent'), sum('delivered')]).toEqual([3, 3]);

    const summary = await home();
    expect(summary.firstSteps).toEqual({ hasList: true, hasCredits: true, hasCampaign: true });
    expect(summary.totals).toMatchObject({ sent: 3, delivered: 3, campaigns: 1 });
    expect(summary.daily).toEqual([
      { day: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), channel: 'sms_short', sent: 3, delivered: 3 },
    ]);
    expect(summary.recent.map((x: { id: string }) => x.id)).toEqual([id, draft]);
    expect(summary.running).toEqual([]);
  });

  it('shows administrators every user’s campaigns with the user, searchable by the user', async () => {
    const owner = await signUpAndSignIn(server, { name: 'Mercado Azul' });
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    await api(server, owner.token).create({ name: 'Ofertas', channel: 'sms_short' });
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/v1/admin/campaigns?q=Mercado%20Azul',
      headers: bearer(admin.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({
        name: 'Ofertas',
        user: expect.objectContaining({ id: owner.user.id, company: 'Mercado Azul' }),
      }),
    ]);
  });
});
