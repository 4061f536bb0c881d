import type { Campaign } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { credits, WELL_BEHAVED } from '../channels/channels.test-support.ts';
import {
  campaignsUser,
  dispatchSettled,
  freshMobiles,
  importList,
  smsCampaign,
  startCampaignsServer,
} from './campaigns.test-support.ts';

/**
 * Pause and cancel take effect within seconds: after their answer nothing
 * more reaches the carrier than what was already on the wire (one window), and what was claimed
 * and not handed over goes back (pause) or is released as canceled (cancel). Reproduced as the
 * report found it: an SMSC that answers each submit in 400 ms and throttles everything for its
 * first 12 s, and a campaign stopped 4 s after its start.
 */
const RECIPIENTS = 300;
/** The bind's window (SMPP_URL's default): submits on the wire at once. */
const WINDOW = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pause and cancel stop the sending within seconds', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startCampaignsServer({
      simulators: {
        ...WELL_BEHAVED,
        voice: { ...WELL_BEHAVED.voice, callsPerSecond: 1 },
        whatsapp: { ...WELL_BEHAVED.whatsapp, throughputPerSecond: 2 },
        rcs: { ...WELL_BEHAVED.rcs, throughputPerSecond: 2 },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  const smsc = () => server.providers.simulators.smsc!;
  const voice = () => server.providers.simulators.voice!;
  /** submit_sm that reached the SMSC, taken or throttled. */
  const arrivals = () => smsc().counters().submits + smsc().counters().throttled;

  async function congestedCampaign(balance: number) {
    const { user, api: c } = await campaignsUser(server, balance);
    const list = await importList(server, user.token, freshMobiles(RECIPIENTS));
    const id = await c.create(smsCampaign('Congestionada', list));
    smsc().reset();
    const throttleUntil = Date.now() + 12_000;
    smsc().setOptions({ responseLatencyMs: 400, throttleUntil });
    await c.move(id, 'start');
    await sleep(4000);
    return { user, c, id, throttleUntil };
  }

  function expectExactCredits(end: Campaign) {
    const used = end.counts.delivered + end.counts.sent + end.counts.unknown;
    const released = end.counts.canceled + end.counts.failed + end.counts.optedOut;
    expect(used + released).toBe(RECIPIENTS);
    expect(end.credits).toEqual({ reserved: RECIPIENTS, used, released });
  }

  it.each(['user', 'admin'] as const)(
    "a cancel (the %s's) 4 s into a congested SMS campaign: at most one window more reaches the SMSC, the rest is canceled and released, the campaign ends",
    async (who) => {
      const { user, c, id, throttleUntil } = await congestedCampaign(400);
      let canceled: Campaign;
      try {
        if (who === 'user') canceled = await c.move(id, 'cancel');
        else {
          const admin = await signUpAndSignIn(server);
          await makeAdmin(server, admin.user.id);
          const res = await server.app.inject({
            method: 'POST',
            url: `/api/v1/admin/campaigns/${id}/cancel`,
            headers: bearer(admin.token),
          });
          expect(res.statusCode, res.body).toBe(200);
          canceled = await c.get(id);
        }
        const atAnswer = arrivals();
        expect(canceled.status).toBe('CANCELED');
        const end = await c.waitFor(
          id,
          (x) => x.finishedAt !== null && x.counts.submitting === 0 && x.counts.sent === 0,
          20_000,
        );
        // Past the congestion: nothing that was held back leaves later.
        await sleep(Math.max(0, throttleUntil - Date.now()) + 1500);
        expect(arrivals() - atAnswer).toBeLessThanOrEqual(WINDOW);
        const taken = smsc().counters().messages;
        expect(end.status).toBe('CANCELED');
        expect(end.counts.canceled).toBe(RECIPIENTS - taken);
        expectExactCredits(end);
        const after = await c.get(id);
        expect(after.counts).toEqual(end.counts);
        expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 400 - end.credits.used, reserved: 0 });
      } finally {
        smsc().setOptions({ responseLatencyMs: 0, throttleUntil: null });
      }
    },
    60_000,
  );

  it('a pause 4 s into a congested SMS campaign: at most one window more, the rest queued again; resumed, each recipient gets it once', async () => {
    const { user, c, id, throttleUntil } = await congestedCampaign(400);
    try {
      await c.move(id, 'pause');
      const atAnswer = arrivals();
      const paused = await c.waitFor(id, (x) => x.status === 'PAUSED' && x.counts.submitting === 0, 10_000);
      await sleep(Math.max(0, throttleUntil - Date.now()) + 1500);
      expect(arrivals() - atAnswer).toBeLessThanOrEqual(WINDOW);
      const still = await c.get(id);
      expect(still.counts.queued).toBe(paused.counts.queued);
      expect(still.counts.queued).toBe(RECIPIENTS - smsc().counters().messages);
    } finally {
      smsc().setOptions({ responseLatencyMs: 0, throttleUntil: null });
    }
    await c.move(id, 'resume');
    const done = await c.waitFor(id, undefined, 60_000);
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { delivered: RECIPIENTS, unknown: 0 } });
    expect(smsc().counters()).toMatchObject({ messages: RECIPIENTS, duplicates: 0 });
    for (const dest of Object.values(smsc().counters().perDestination)) expect(dest.messages).toBe(1);
    expectExactCredits(done);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 400 - RECIPIENTS, reserved: 0 });
  }, 90_000);

  it('a cancel while the carrier answers "try later" releases those recipients as canceled and the campaign ends (not queued in a canceled campaign forever)', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
    const list = await importList(server, user.token, freshMobiles(20));
    const id = await c.create({ name: 'Tente depois', channel: 'sms_short', listIds: [list], content: { text: 'Oi' } });
    smsc().reset();
    // ESME_RSYSERR: nothing was taken, the same submit may succeed later.
    smsc().setOptions({ rejectStatus: 0x08 });
    try {
      await c.move(id, 'start');
      await c.waitFor(id, (x) => x.counts.submitting > 0, 10_000);
      await c.move(id, 'cancel');
      const end = await c.waitFor(
        id,
        (x) => x.finishedAt !== null && x.counts.submitting === 0 && x.counts.sent === 0,
        15_000,
      );
      expect(end).toMatchObject({
        status: 'CANCELED',
        counts: { canceled: 20, queued: 0 },
        credits: { reserved: 20, used: 0, released: 20 },
      });
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 50, reserved: 0 });
    } finally {
      smsc().setOptions({ rejectStatus: null });
    }
  }, 60_000);

  it.each([
    { channel: 'voice_torpedo' as const, type: 'URA' as const, content: { tts: 'Olá' }, perSecond: 1 },
    {
      channel: 'whatsapp' as const,
      type: 'WHATSAPP' as const,
      content: { template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana'] } },
      perSecond: 2,
    },
    {
      channel: 'rcs' as const,
      type: 'RCS' as const,
      content: { card: { title: 'Oferta', suggestions: [{ kind: 'reply' as const, text: 'Quero' }] } },
      perSecond: 2,
    },
  ])(
    '$channel at $perSecond/s canceled after 2 s hands at most ~2 more to the carrier, the rest canceled and released',
    async ({ channel, type, content, perSecond }) => {
      const { user, api: c } = await campaignsUser(server, 100);
      const list = await importList(server, user.token, freshMobiles(40));
      const id = await c.create({ name: 'Lenta', channel, listIds: [list], content });
      const sims = server.providers.simulators;
      const reached = () =>
        channel === 'voice_torpedo'
          ? voice().counters().totals.calls
          : channel === 'whatsapp'
            ? sims.whatsapp!.counters().accepted
            : sims.rcs!.counters().accepted;
      const before = reached();
      await c.move(id, 'start');
      await sleep(2000);
      expect(reached() - before).toBeLessThanOrEqual(2 * perSecond + 1);
      await c.move(id, 'cancel');
      const atAnswer = reached();
      const end = await c.waitFor(id, (x) => x.finishedAt !== null && x.counts.submitting === 0 && x.counts.sent === 0);
      // Every dispatcher of the campaign has stopped: whatever reached the carrier has been counted.
      await dispatchSettled(server, id);
      expect(reached() - atAnswer).toBeLessThanOrEqual(2);
      const placed = reached() - before;
      expect(end.counts.canceled).toBe(40 - placed);
      expect(end.credits).toEqual({ reserved: 40, used: placed, released: 40 - placed });
      expect(await credits(server, user.id, type)).toEqual({ available: 100 - placed, reserved: 0 });
    },
    60_000,
  );
});
