import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { credits } from '../channels/channels.test-support.ts';
import {
  campaignsServerOn,
  campaignsUser,
  freshMobiles,
  importList,
  MONDAY_8AM,
  mobile,
  smsCampaign,
  WORKDAYS,
} from './campaigns.test-support.ts';

/**
 * Where a campaign's credits go at the moments that decide them: a cancel's own answer (before
 * any supervisor pass could tidy up), and a carrier answer that leaves "maybe sent". Each figure
 * is exact, read from the campaign's answer and from the ledger's balance.
 */

describe(`campaign credits at the moments that decide them (${dbKind})`, () => {
  const clock = createManualClock(MONDAY_8AM);
  let server: RunningServer;
  openBeforeAll(campaignsServerOn(clock), (opened) => (server = opened));
  const smsc = () => server.providers.simulators.smsc!;

  it('cancel releases every queued credit in its own answer (nothing in flight, before any supervisor pass)', async () => {
    const { user, api: c } = await campaignsUser(server, 50);
    const phones = Array.from({ length: 12 }, () => mobile());
    const list = await importList(
      server,
      user.token,
      phones.map((phone) => ({ phone })),
    );
    // Started before its window opens: running, all 12 queued, none handed to a dispatcher.
    const id = await c.create({ ...smsCampaign('Antes das 9', list), window: WORKDAYS });
    const started = await c.move(id, 'start');
    expect(started).toMatchObject({ status: 'RUNNING', waitingWindow: true, counts: { queued: 12 } });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 38, reserved: 12 });

    const canceled = await c.move(id, 'cancel');
    expect(canceled).toMatchObject({
      status: 'CANCELED',
      counts: { queued: 0, submitting: 0, canceled: 12 },
      credits: { reserved: 12, used: 0, released: 12 },
    });
    expect(canceled.finishedAt).not.toBeNull();
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 50, reserved: 0 });
    const digits = (phone: string) => phone.replace(/\D/g, '');
    const reached = new Set(Object.keys(smsc().counters().perDestination).map(digits));
    expect(phones.filter((phone) => reached.has(digits(phone)))).toEqual([]);
  });

  it('cancel mid-run releases, in its answer, exactly the credits of the messages it canceled', async () => {
    const { user, api: c } = await campaignsUser(server, 60);
    const list = await importList(server, user.token, freshMobiles(40));
    const id = await c.create({ ...smsCampaign('Lenta', list), maxRate: 10 });
    await c.move(id, 'start');
    await c.waitFor(id, (x) => x.counts.delivered >= 3);
    const canceled = await c.move(id, 'cancel');
    expect(canceled.status).toBe('CANCELED');
    expect(canceled.counts.canceled).toBeGreaterThan(0);
    // The cancel's own transaction released what it canceled (the queued rows) at once. Rows a
    // dispatcher had claimed but not handed over are canceled and released by its settle, halted
    // by the cancel, which may commit between the answer's reads of credits and of counts: the
    // released credits never exceed the canceled rows; the end state below is exact.
    expect(canceled.credits.released).toBeGreaterThan(0);
    expect(canceled.credits.released).toBeLessThanOrEqual(canceled.counts.canceled);

    const end = await c.waitFor(id, (x) => x.finishedAt !== null && x.counts.submitting === 0 && x.counts.sent === 0);
    const carried = end.counts.delivered + end.counts.unknown;
    expect(end.counts.delivered + end.counts.unknown + end.counts.failed + end.counts.canceled).toBe(40);
    expect(end.credits).toEqual({ reserved: 40, used: carried, released: 40 - carried });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 60 - carried, reserved: 0 });
  });

  it('a carrier answer that leaves "maybe sent" (the bind dropped mid-submit) is unknown and paid, never released', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const phone = mobile();
    const list = await importList(server, user.token, [{ phone }]);
    const id = await c.create({ name: 'Talvez', channel: 'sms_short', listIds: [list], content: { text: 'Oi' } });
    smsc().reset();
    // The SMSC drops the bind when the submit arrives, without answering it.
    smsc().setOptions({ dropAfterSubmits: 1 });
    try {
      await c.move(id, 'start');
      const done = await c.waitFor(id);
      expect(done).toMatchObject({
        status: 'COMPLETED',
        counts: { unknown: 1, failed: 0, delivered: 0 },
        credits: { reserved: 1, used: 1, released: 0 },
        reasons: [{ reason: 'SMPP_BIND_LOST', count: 1 }],
      });
    } finally {
      smsc().setOptions({ dropAfterSubmits: null });
    }
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 9, reserved: 0 });
    // Maybe sent means never sent again.
    expect(smsc().counters().submits).toBe(1);
  });
});
