import { analyzeSms } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { waitUntil } from '../../../test/processes.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { credits } from '../channels/channels.test-support.ts';
import { audioOf } from './campaigns.lifecycle.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import {
  campaignsUser,
  dispatchSettled,
  freshMobiles,
  importList,
  mobile,
  smsCampaign,
  startCampaignsServer,
  withSmscOptions,
} from './campaigns.test-support.ts';

// The audio a start locks (and a delete of it is refused for): the torpedo's own, the URA menu's.
describe('audioOf', () => {
  const row = (channel: CampaignRow['channel'], content: CampaignRow['content']) => ({ channel, content });
  it.each([
    { case: 'a torpedo with a recorded audio', row: row('voice_torpedo', { audioId: 'a1' }), audio: 'a1' },
    { case: 'a torpedo spoken from text', row: row('voice_torpedo', { tts: 'Olá' }), audio: undefined },
    { case: "a URA's recorded menu", row: row('ura', { menu: { audioId: 'm1' }, options: [] }), audio: 'm1' },
    { case: 'a URA menu spoken from text', row: row('ura', { menu: { tts: 'Olá' }, options: [] }), audio: undefined },
    { case: 'a URA with no menu yet (a draft)', row: row('ura', {}), audio: undefined },
    { case: 'an SMS naming an audio', row: row('sms_short', { text: 'Oi', audioId: 'x' }), audio: undefined },
    {
      case: 'a WhatsApp message naming a menu audio',
      row: row('whatsapp', { text: 'Oi', menu: { audioId: 'x' } }),
      audio: undefined,
    },
  ] as { case: string; row: Pick<CampaignRow, 'channel' | 'content'>; audio: string | undefined }[])(
    '$case: $audio',
    ({ row, audio }) => {
      expect(audioOf(row)).toBe(audio);
    },
  );
});

describe('campaigns: create, estimate, start, dispatch, settle', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));
  const smsc = () => server.providers.simulators.smsc!;

  // A text with variables is rendered per recipient in Node; the same text for all is written by one SQL statement.
  it.each([
    { text: 'Olá {nome}, oferta!', rendered: 'Olá Ana 0, oferta!', loser: 'Olá Outra Ana, oferta!' },
    { text: 'Oferta para todos!', rendered: 'Oferta para todos!', loser: null },
  ])(
    'sends an SMS campaign once to each eligible recipient, with the credits captured exactly ("$text")',
    async ({ text, rendered, loser }) => {
      const { user, api: c } = await campaignsUser(server, 100);
      const shared = mobile();
      const optedOut = mobile();
      const a = [shared, optedOut, mobile(), mobile()].map((phone, i) => ({ phone, name: `Ana ${i}` }));
      const b = [
        { phone: shared, name: 'Outra Ana' },
        { phone: mobile(), name: 'Bia' },
        { phone: '+551133334444', name: 'Fixo' },
      ];
      const lists = [await importList(server, user.token, a, 'A'), await importList(server, user.token, b, 'B')];
      const add = await c.call('POST', '/api/v1/opt-outs', { phones: [optedOut] });
      expect(add.statusCode, add.body).toBeLessThan(300);
      const id = await c.create({
        name: 'Promo',
        channel: 'sms_short',
        listIds: lists,
        content: { text },
      });

      const estimate = await c.estimate(id);
      expect(estimate).toMatchObject({
        recipients: 4,
        excluded: { optedOut: 1, duplicates: 1, landlines: 1 },
        parts: 4,
        creditType: 'SMSSHORT',
        available: 100,
        shortfall: 0,
        problems: [],
      });

      const before = await credits(server, user.id, 'SMSSHORT');
      smsc().reset();
      const started = await c.move(id, 'start');
      expect(started).toMatchObject({ status: 'RUNNING', total: 4, credits: { reserved: 4 } });
      // The snapshot's ids are UUIDv7-shaped and ascend in the order the statement wrote them (by phone).
      const { rows: ids } = await server.db.executeSql(
        'select id::text as id from messages where campaign_id = $1 order by to_phone',
        [id],
      );
      const written = (ids as { id: string }[]).map((r) => r.id);
      for (const one of written)
        expect(one).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Set(written).size).toBe(4);
      expect(written).toEqual([...written].sort());
      const done = await c.waitFor(id);
      expect(done).toMatchObject({
        status: 'COMPLETED',
        counts: { delivered: 4, queued: 0, submitting: 0, failed: 0, unknown: 0 },
        credits: { reserved: 4, used: 4, released: 0 },
      });
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 4, reserved: 0 });
      const counters = smsc().counters();
      expect(counters.messages).toBe(4);
      expect(counters.duplicates).toBe(0);
      // The first list's row wins a duplicate: its name is the one rendered.
      const texts = smsc()
        .records()
        .map((r) => r.text);
      expect(texts).toContain(rendered);
      if (loser) expect(texts).not.toContain(loser);
      const page = await c.call('GET', `/api/v1/campaigns/${id}/messages`);
      const names = (page.json().items as { name: string | null }[]).map((m) => m.name);
      expect(names).toContain('Ana 0');
      expect(names).not.toContain('Outra Ana');
      expect(names).not.toContain('Fixo');
    },
  );

  it('refuses to start without enough credits, with the exact shortfall, and changes nothing', async () => {
    const { user, api: c } = await campaignsUser(server, 3);
    const list = await importList(server, user.token, freshMobiles(5));
    const long = 'x'.repeat(200); // two parts each
    expect(analyzeSms(long).parts).toHaveLength(2);
    const id = await c.create({ name: 'Grande', channel: 'sms_short', listIds: [list], content: { text: long } });
    const res = await c.call('POST', `/api/v1/campaigns/${id}/start`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { requested: 10, available: 3, shortfall: 7 },
    });
    expect(await c.get(id)).toMatchObject({ status: 'DRAFT', total: 0, counts: { queued: 0 } });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 3, reserved: 0 });
  });

  it('says what is missing before a draft can start', async () => {
    const { api: c } = await campaignsUser(server, 5);
    const id = await c.create({ name: 'Incompleta', channel: 'whatsapp' });
    const estimate = await c.estimate(id);
    expect(estimate.problems.map((p) => p.code).sort()).toEqual(['LISTS_REQUIRED', 'TEMPLATE_REQUIRED']);
    const res = await c.call('POST', `/api/v1/campaigns/${id}/start`);
    expect(res.statusCode).toBe(400);
    // The answer names the first problem the estimate shows, in the user's words, and lists them all.
    expect(res.json()).toMatchObject({ code: estimate.problems[0]!.code, message: expect.stringMatching(/\S/) });
    expect(JSON.stringify(res.json())).toContain('TEMPLATE_REQUIRED');
    expect(JSON.stringify(res.json())).toContain('LISTS_REQUIRED');
  });

  it('pauses and resumes mid-run without sending anyone twice, and cancel releases the rest at once', async () => {
    const { user, api: c } = await campaignsUser(server, 60);
    const list = await importList(server, user.token, freshMobiles(40));
    const id = await c.create({ ...smsCampaign('Lenta', list), maxRate: 20 });
    smsc().reset();
    await c.move(id, 'start');
    await c.waitFor(id, (x) => x.counts.delivered >= 5);
    await c.move(id, 'pause');
    const paused = await c.waitFor(id, (x) => x.status === 'PAUSED' && x.counts.submitting === 0);
    // Every dispatcher the campaign had stopped; a supervisor pass and one more dispatch loop did not take it up again.
    await dispatchSettled(server, id);
    const still = await c.get(id);
    expect(still.counts.queued).toBe(paused.counts.queued);
    expect(still.counts.queued).toBeGreaterThan(0);

    await c.move(id, 'resume');
    await c.waitFor(id, (x) => x.counts.queued <= 20);
    const canceled = await c.move(id, 'cancel');
    expect(canceled.status).toBe('CANCELED');
    const end = await c.waitFor(id, (x) => x.finishedAt !== null && x.counts.submitting === 0 && x.counts.sent === 0);
    const sentOut = end.counts.delivered + end.counts.failed + end.counts.unknown;
    expect(end.counts.canceled).toBe(40 - sentOut);
    expect(end.credits).toEqual({ reserved: 40, used: sentOut, released: 40 - sentOut });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 60 - sentOut, reserved: 0 });
    expect(smsc().counters().messages).toBe(sentOut);
    expect(smsc().counters().duplicates).toBe(0);
  });

  it('keeps each failure reason and releases what the carrier refused', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, freshMobiles(3));
    const id = await c.create({ name: 'Recusada', channel: 'sms_flash', listIds: [list], content: { text: 'Alerta' } });
    smsc().setOptions({ rejectStatus: 0x0b });
    try {
      await c.move(id, 'start');
      const done = await c.waitFor(id);
      expect(done).toMatchObject({
        status: 'COMPLETED',
        counts: { failed: 3 },
        credits: { reserved: 3, used: 0, released: 3 },
        reasons: [{ reason: 'SMPP_0x0000000B', count: 3 }],
      });
    } finally {
      smsc().setOptions({ rejectStatus: null });
    }
    expect(await credits(server, user.id, 'SMSFLASH')).toEqual({ available: 10, reserved: 0 });
  });

  it('a cancel while a batch is out answers at once, and the campaign ends only when that batch has settled', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, freshMobiles(2));
    const id = await c.create(smsCampaign('Lenta', list));
    // Each submit answered after 1.5 s: the batch is on the wire when the cancel comes.
    await withSmscOptions(smsc(), { responseLatencyMs: 1500 }, async () => {
      await c.move(id, 'start');
      await c.waitFor(id, (x) => x.counts.submitting > 0, 10_000);
      expect(await c.move(id, 'cancel')).toMatchObject({ status: 'CANCELED', finishedAt: null });
      const end = await c.waitFor(id, (x) => x.finishedAt !== null, 20_000);
      expect(end).toMatchObject({ status: 'CANCELED', counts: { submitting: 0, queued: 0 } });
      // What was on the wire was sent and paid; nothing else was.
      expect(end.counts.sent + end.counts.delivered + end.counts.canceled).toBe(2);
      expect(end.credits.used + end.credits.released).toBe(end.credits.reserved);
    });
  }, 40_000);

  it('ends only a running campaign: a paused one with nothing left waits for its resume, which gives back what its reservation still holds', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, freshMobiles(2));
    const id = await c.create(smsCampaign('Pausada no fim', list));
    await withSmscOptions(smsc(), { responseLatencyMs: 1500 }, async () => {
      const before = smsc().counters().messages;
      await c.move(id, 'start');
      // Both reached the carrier (each answered 1.5 s later): the pause finds them on the wire.
      await waitUntil('both submits at the carrier', () => smsc().counters().messages >= before + 2, 10_000);
      await c.move(id, 'pause');
      // Both were on the wire: they are sent, and nothing is left to send.
      await c.waitFor(id, (x) => x.counts.submitting === 0, 20_000);
    });
    expect(await c.get(id)).toMatchObject({ status: 'PAUSED', finishedAt: null, counts: { queued: 0 } });
    expect(await server.modules.campaigns.finishIfDone(id)).toBe(false);
    expect(await c.get(id)).toMatchObject({ status: 'PAUSED', finishedAt: null });

    // A part of the reservation no recipient accounts for (as a crash between a reserve and its
    // snapshot would leave): the end gives it back.
    await server.db.db.transaction(async (tx) => {
      await server.modules.ledger.reserve({
        userId: user.id,
        type: 'SMSSHORT',
        amount: 3,
        reference: { type: 'campaign', id },
        tx,
      });
      await tx.execute(sql`update campaigns set credits_reserved = credits_reserved + 3 where id = ${id}`);
    });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 5, reserved: 3 });
    await c.move(id, 'resume');
    const done = await c.waitFor(id);
    expect(done).toMatchObject({ status: 'COMPLETED', credits: { reserved: 5, used: 2, released: 3 } });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 8, reserved: 0 });
    // Ended: asked again, nothing moves.
    expect(await server.modules.campaigns.finishIfDone(id)).toBe(false);
    expect((await c.get(id)).finishedAt).toBe(done.finishedAt);
  }, 60_000);

  it('does not end a running campaign while recipients are queued', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, freshMobiles(5));
    const id = await c.create({ ...smsCampaign('Devagar', list), maxRate: 1 });
    await c.move(id, 'start');
    expect(await server.modules.campaigns.finishIfDone(id)).toBe(false);
    expect(await c.get(id)).toMatchObject({ status: 'RUNNING', finishedAt: null });
    await c.move(id, 'cancel');
  }, 30_000);

  it('pauses a campaign whose carrier keeps refusing for now, with the reason shown', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const list = await importList(server, user.token, freshMobiles(2));
    const id = await c.create(smsCampaign('Congestionada', list));
    // The carrier changed the account's password: every bind is refused, nothing can leave Ecoa.
    const password = smsc().options().password;
    smsc().setOptions({ password: 'trocada' });
    smsc().dropBinds();
    const smpp = server.providers.registry.forChannel('sms_short');
    while (smpp.health().connected) await new Promise((r) => setTimeout(r, 20));
    try {
      await c.move(id, 'start');
      const paused = await c.waitFor(id, (x) => x.status === 'PAUSED', 40_000);
      expect(paused.statusReason).toBe('PROVIDER_FAILING');
      expect(paused.statusDetail).toMatch(/SMPP_BIND_0x0000000E/);
      expect(paused.counts).toMatchObject({ queued: 2, submitting: 0, failed: 0 });
    } finally {
      smsc().setOptions({ password });
    }
    await c.move(id, 'resume');
    expect(await c.waitFor(id)).toMatchObject({ status: 'COMPLETED', counts: { delivered: 2 } });
  }, 60_000);
});
