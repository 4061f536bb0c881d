import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';

/** Rotating links end to end: the owner's API, the public hop, the clicks and the stats. */
describe(`rotating links (${dbKind})`, () => {
  let server: RunningServer;
  let token: string;
  let userId: string;
  let n = 0;

  beforeAll(async () => {
    server = await createTestServer();
    const user = await signUpAndSignIn(server);
    token = user.token;
    userId = user.user.id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    injectAs(server, token, { method, url, ...(payload ? { payload } : {}) });
  const uniqueSlug = (base: string) => `${base}-${userId.slice(0, 6)}-${++n}`;
  /** A click from its own address (the hop limits clicks per IP). */
  const click = (slug: string, i: number, headers: Record<string, string> = {}, query = '') =>
    server.app.inject({
      method: 'GET',
      url: `/l/${slug}${query}`,
      remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)', ...headers },
    });
  const create = async (body: object) => {
    const res = await api('POST', '/api/v1/rotating-links', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const phones = ['11987650101', '11987650102', '11987650103'];
  const waTargets = (extra: object[] = []) =>
    phones.map((phone, i) => ({ kind: 'whatsapp', phone, label: `Vendedor ${i + 1}`, ...(extra[i] ?? {}) }));
  const digitsOf = (location: string) => /wa\.me\/(\d+)/.exec(location)?.[1];

  it('creates a link with its address, E.164 targets, and refuses a taken slug or a bad target', async () => {
    const slug = uniqueSlug('vendas');
    const link = await create({
      name: 'Vendas',
      slug: slug.toUpperCase(),
      targets: [
        {
          kind: 'whatsapp',
          phone: '(11) 98765-0101',
          label: 'Ana',
          message: 'Olá! Vim pelo {nome_do_link}, falo com {atendente}?',
        },
        { kind: 'url', url: 'https://ecoa.example.com/catalogo' },
      ],
    });
    expect(link).toMatchObject({
      slug,
      url: `${server.config.publicUrl}/l/${slug}`,
      mode: 'round_robin',
      status: 'active',
      targets: [{ phone: '+5511987650101', label: 'Ana' }, { kind: 'url' }],
      clicks: 0,
    });
    const again = await api('POST', '/api/v1/rotating-links', {
      name: 'Outro',
      slug,
      targets: [{ kind: 'url', url: 'https://a.example.com' }],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('LINK_SLUG_TAKEN');
    for (const [target, code] of [
      [{ kind: 'whatsapp', phone: '123' }, 'LINK_PHONE_INVALID'],
      [{ kind: 'url', url: 'javascript:alert(1)' }, 'LINK_URL_INVALID'],
      [{ kind: 'whatsapp', phone: '11987650101', message: 'Oi {cliente}' }, 'LINK_MESSAGE_PLACEHOLDER'],
    ] as const) {
      const res = await api('POST', '/api/v1/rotating-links', { name: 'X', slug: uniqueSlug('x'), targets: [target] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe(code);
    }
    const badSlug = await api('POST', '/api/v1/rotating-links', {
      name: 'X',
      slug: 'não vale',
      targets: [{ kind: 'url', url: 'https://a.example.com' }],
    });
    expect(badSlug.statusCode).toBe(400);

    // The hop: a 302 to wa.me with the message's placeholders filled.
    const hop = await click(slug, 1);
    expect(hop.statusCode).toBe(302);
    expect(hop.headers.location).toBe(
      `https://wa.me/5511987650101?text=${encodeURIComponent('Olá! Vim pelo Vendas, falo com Ana?')}`,
    );
    expect((await click(slug, 2)).headers.location).toBe('https://ecoa.example.com/catalogo');
  });

  it('round robin is exact under parallel clicks: N clicks on K targets give each N/K', async () => {
    const slug = uniqueSlug('rr');
    await create({ name: 'Rodízio', slug, targets: waTargets() });
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => click(slug, i)));
    const counts = new Map<string, number>();
    for (const a of answers) {
      expect(a.statusCode).toBe(302);
      const d = digitsOf(a.headers.location as string)!;
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
    expect([...counts.values()]).toEqual([100, 100, 100]);
  });

  it('weighted: 10,000 clicks split exactly by weight', async () => {
    const slug = uniqueSlug('peso');
    await create({
      name: 'Peso',
      slug,
      mode: 'weighted',
      targets: waTargets([{ weight: 1 }, { weight: 2 }, { weight: 7 }]),
    });
    const counts = new Map<string, number>();
    for (let start = 0; start < 10_000; start += 250) {
      const answers = await Promise.all(Array.from({ length: 250 }, (_, i) => click(slug, start + i)));
      for (const a of answers) {
        const d = digitsOf(a.headers.location as string)!;
        counts.set(d, (counts.get(d) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(counts)).toEqual({ '5511987650101': 1000, '5511987650102': 2000, '5511987650103': 7000 });
    // 10,000 hops: ~20 s on a quiet 2-core machine, several times that on a busy one.
  }, 180_000);

  it('skips targets switched off or out of hours; a fallback or a friendly page when nobody is available', async () => {
    // Hours are judged on the server's clock: a server with a clock of its own, so the test does
    // not depend on the day it runs (a "Sundays 00:00–00:01" target was open at that minute).
    const clock = createManualClock(nextWednesdayAt2300Utc()); // 20:00 in São Paulo
    const timed = await createTestServer({ clock, work: false });
    try {
      const owner = await signUpAndSignIn(timed);
      const ownerApi = (method: 'POST' | 'PATCH', url: string, payload: object) =>
        timed.app.inject({ method, url, headers: bearer(owner.token), payload });
      const hop = (i: number, headers: Record<string, string> = {}) =>
        timed.app.inject({
          method: 'GET',
          url: `/l/${slug}`,
          remoteAddress: `10.98.0.${i}`,
          headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)', ...headers },
        });
      const slug = uniqueSlug('horas');
      const wednesdayDaytime = { days: [3], start: '09:00', end: '18:00' };
      const created = await ownerApi('POST', '/api/v1/rotating-links', {
        name: 'Horário',
        slug,
        targets: waTargets([{ active: false }, { hours: wednesdayDaytime }, {}]),
      });
      expect(created.statusCode, created.body).toBe(201);
      const link = created.json();
      // 20:00: the second target's hours are over, the first is off.
      for (let i = 0; i < 5; i++) expect(digitsOf((await hop(i)).headers.location as string)).toBe('5511987650103');
      // Noon the same day: the second is in its hours again and takes its turns.
      clock.set(new Date('2026-11-25T15:00:00Z'));
      const atNoon = new Set<string>();
      for (let i = 5; i < 9; i++) atNoon.add(digitsOf((await hop(i)).headers.location as string)!);
      expect([...atNoon].sort()).toEqual(['5511987650102', '5511987650103']);
      // The same noon on a Thursday: out of its days.
      clock.set(new Date('2026-11-26T15:00:00Z'));
      for (let i = 9; i < 12; i++) expect(digitsOf((await hop(i)).headers.location as string)).toBe('5511987650103');

      // The last one off too: no fallback → the friendly page, translated. (Back to the evening
      // the owner signed in: the session would have lapsed by the Thursday.)
      clock.set(new Date('2026-11-25T23:30:00Z'));
      const targets = link.targets.map((t: { id: string }, i: number) => ({
        ...waTargets()[i],
        id: t.id,
        active: false,
      }));
      expect((await ownerApi('PATCH', `/api/v1/rotating-links/${link.id}`, { targets })).statusCode).toBe(200);
      const none = await hop(20, { 'accept-language': 'en-US,en;q=0.9' });
      expect(none.statusCode).toBe(503);
      expect(none.body).toContain('Nobody available right now');
      const withFallback = await ownerApi('PATCH', `/api/v1/rotating-links/${link.id}`, {
        fallback: { kind: 'url', url: 'https://ecoa.example.com/fale-conosco' },
      });
      expect(withFallback.statusCode, withFallback.body).toBe(200);
      expect((await hop(21)).headers.location).toBe('https://ecoa.example.com/fale-conosco');
    } finally {
      await timed.close();
    }
  });

  it('sticky: a returning visitor goes to the same target; link previews neither turn nor count', async () => {
    const slug = uniqueSlug('fixo');
    const link = await create({ name: 'Fixo', slug, sticky: true, targets: waTargets() });
    const first = await click(slug, 1);
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^ecoa_l_/);
    for (let i = 0; i < 3; i++) {
      const back = await click(slug, 1, { cookie });
      expect(back.headers.location).toBe(first.headers.location);
    }
    // A new visitor takes the next turn.
    expect(digitsOf((await click(slug, 2)).headers.location as string)).toBe('5511987650102');
    const preview = await click(slug, 3, { 'user-agent': 'WhatsApp/2.23.20.0 A' });
    expect(preview.statusCode).toBe(302);
    expect(digitsOf((await click(slug, 4)).headers.location as string)).toBe('5511987650103');
    await server.modules.linkClicks.close();
    const got = (await api('GET', `/api/v1/rotating-links/${link.id}`)).json();
    // 1 first + 3 returning + 2 new visitors; the preview is not a click.
    expect(got.clicks).toBe(6);
  });

  it('with a pixel: a minimal page that fires it (nonce CSP) and moves on', async () => {
    const slug = uniqueSlug('pixel');
    await create({
      name: 'Pixel',
      slug,
      targets: waTargets(),
      pixels: { meta: '123456789012345', google: 'G-ABC1234' },
    });
    const page = await click(slug, 1);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('fbq(\'init\',"123456789012345")');
    expect(page.body).toContain('https://wa.me/5511987650101');
    const csp = String(page.headers['content-security-policy']);
    const nonce = /nonce-([A-Za-z0-9+/=]+)/.exec(csp)?.[1];
    expect(page.body).toContain(`<script nonce="${nonce}">`);
  });

  it('unknown, paused, deleted or disabled: the friendly 404 page, never a trace; the slug is free after delete', async () => {
    const notFound = await click('nao-existe-mesmo', 1);
    expect(notFound.statusCode).toBe(404);
    expect(notFound.body).toContain('Link não encontrado');
    expect((await click('nao-existe-mesmo', 2, { 'accept-language': 'zh-CN' })).body).toContain('未找到链接');
    const slug = uniqueSlug('pausa');
    const link = await create({ name: 'Pausa', slug, targets: waTargets() });
    await api('PATCH', `/api/v1/rotating-links/${link.id}`, { status: 'paused' });
    expect((await click(slug, 1)).statusCode).toBe(404);
    await api('PATCH', `/api/v1/rotating-links/${link.id}`, { status: 'active' });
    expect((await click(slug, 2)).statusCode).toBe(302);

    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const refused = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/links/${link.id}`,
      headers: bearer(admin.token),
      payload: { disabled: true },
    });
    expect(refused.statusCode).toBe(400);
    const disabled = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/links/${link.id}`,
      headers: bearer(admin.token),
      payload: { disabled: true, reason: 'golpe denunciado' },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ disabled: true, disabledReason: 'golpe denunciado' });
    expect((await click(slug, 3)).statusCode).toBe(404);
    const { rows } = await server.db.executeSql(
      "select action from audit_log where subject_type = 'link' and subject_id = $1",
      [link.id],
    );
    expect(rows).toEqual([{ action: 'link.disable' }]);

    expect((await api('DELETE', `/api/v1/rotating-links/${link.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/api/v1/rotating-links/${link.id}`)).statusCode).toBe(404);
    await create({ name: 'De novo', slug, targets: waTargets() });
  });

  it('stats: clicks per target, per day, referrers and UTM campaigns; the CSV export; no raw IP kept', async () => {
    const slug = uniqueSlug('stats');
    const link = await create({ name: 'Stats', slug, targets: waTargets() });
    for (let i = 0; i < 6; i++)
      await click(
        slug,
        i,
        { referer: 'https://www.instagram.com/ecoa/' },
        `?utm_source=ig&utm_campaign=${i < 4 ? 'natal' : 'verao'}`,
      );
    await server.modules.linkClicks.close();
    const stats = (await api('GET', `/api/v1/rotating-links/${link.id}/stats`)).json();
    expect(stats.clicks).toBe(6);
    expect(stats.byTarget.map((t: { clicks: number }) => t.clicks)).toEqual([2, 2, 2]);
    expect(stats.byTarget.map((t: { label: string }) => t.label).sort()).toEqual([
      'Vendedor 1',
      'Vendedor 2',
      'Vendedor 3',
    ]);
    expect(stats.byDay.reduce((s: number, d: { clicks: number }) => s + d.clicks, 0)).toBe(6);
    // Every day of the period is there, the quiet ones with 0, one after the other.
    const days = stats.byDay.map((d: { day: string }) => Date.parse(`${d.day}:00Z`));
    expect(days.length).toBeGreaterThanOrEqual(30);
    for (let i = 1; i < days.length; i++) expect(days[i] - days[i - 1]).toBe(86_400_000);
    const from = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const hourly = (await api('GET', `/api/v1/rotating-links/${link.id}/stats?bucket=hour&from=${from}`)).json();
    expect(hourly.byDay.length).toBeGreaterThanOrEqual(2);
    expect(hourly.byDay.length).toBeLessThanOrEqual(3);
    expect(hourly.byDay.reduce((s: number, d: { clicks: number }) => s + d.clicks, 0)).toBe(6);
    expect(stats.topReferrers).toEqual([{ referrer: 'instagram.com', clicks: 6 }]);
    expect(stats.topCampaigns).toEqual([
      { utmCampaign: 'natal', clicks: 4 },
      { utmCampaign: 'verao', clicks: 2 },
    ]);
    const csv = await api('GET', `/api/v1/rotating-links/${link.id}/clicks/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.trim().split('\r\n')).toHaveLength(7);
    expect(csv.body).toContain('Vendedor 1');
    expect(csv.body).not.toContain('10.0.0.1');
    const { rows } = await server.db.executeSql(
      'select count(distinct visitor)::int as n from link_clicks where link_id = $1',
      [link.id],
    );
    expect(rows).toEqual([{ n: 6 }]);
    const list = (await api('GET', '/api/v1/rotating-links')).json();
    expect(list.items.find((l: { id: string }) => l.id === link.id)).toMatchObject({ clicks: 6, clicksLast7Days: 6 });
  });

  it('limits clicks per IP: the friendly "too many" page', async () => {
    // The limit counts clicks per clock minute: a server with a clock of its own, so that the
    // clicks never straddle two minutes (they did once, on a loaded machine, and all passed).
    // Ten seconds into this minute: a fixed date more than two days past had its sign-in codes
    // pruned at once (housekeeping runs on the database's clock), failing from 2026-11-27 on.
    const clock = createManualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000));
    const limited = await createTestServer({ clock, work: false });
    try {
      const owner = await signUpAndSignIn(limited);
      const slug = uniqueSlug('limite');
      const created = await limited.app.inject({
        method: 'POST',
        url: '/api/v1/rotating-links',
        headers: bearer(owner.token),
        payload: { name: 'Limite', slug, targets: waTargets() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const hop = (address: string) =>
        limited.app.inject({ method: 'GET', url: `/l/${slug}`, remoteAddress: address }).then((r) => r.statusCode);
      const answers = [];
      for (let i = 0; i < 125; i++) answers.push(await hop('10.99.0.1'));
      expect(answers.filter((s) => s === 302)).toHaveLength(120);
      expect(answers.slice(120)).toEqual([429, 429, 429, 429, 429]);
      // Another address is not held back, and the next minute this one may click again.
      expect(await hop('10.99.0.2')).toBe(302);
      clock.advance(60_000);
      expect(await hop('10.99.0.1')).toBe(302);
    } finally {
      await limited.close();
    }
  });
});

/**
 * A Wednesday at 23:00 UTC (20:00 in São Paulo), one to seven days from now. Never a fixed date: one
 * more than two days past has its sign-in codes pruned at once (housekeeping runs on the database's
 * own clock), so the test that used 2026-11-25 would have started failing two days later.
 */
function nextWednesdayAt2300Utc(): Date {
  const at = new Date();
  at.setUTCHours(23, 0, 0, 0);
  at.setUTCDate(at.getUTCDate() + ((3 - at.getUTCDay() + 7) % 7 || 7));
  return at;
}
