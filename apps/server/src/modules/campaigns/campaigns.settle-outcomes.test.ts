import type { Campaign } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { Carrier } from './campaigns.dispatcher.test-support.ts';
import {
  ALWAYS,
  api,
  dispatchSettled,
  freshMobiles,
  importList,
  smsCampaign,
  startCarrierServer,
} from './campaigns.test-support.ts';

/**
 * How a batch's outcomes end (campaigns.settle.ts), each seen from outside through a campaign the
 * real server modules send on a real database, to a scripted carrier: taken → `sent` and charged;
 * refused for good → `failed`, released; no answer → `unknown`, charged, never sent again;
 * "try later" or never handed over → back to the queue (or `canceled` and released when the
 * campaign was canceled meanwhile); opted out → `opted_out`, released.
 */
describe('a batch settles each outcome and its credits', () => {
  let handle: DbHandle;
  let server: RunningServer;
  let close: (() => Promise<void>) | undefined;
  let user: { id: string; token: string };
  const sql = async <T>(text: string, values: unknown[] = []) => (await handle.executeSql(text, values)).rows as T[];
  const carrier = new Carrier(async () => 0);

  beforeAll(async () => {
    ({ server, handle, close } = await startCarrierServer(carrier));
    user = await userWithCredits(server, 1000);
  }, 120_000);

  afterAll(async () => {
    await close?.();
  });

  async function started(count: number, maxRate?: number) {
    const c = api(server, user.token);
    const list = await importList(server, user.token, freshMobiles(count));
    const id = await c.create({ ...smsCampaign('Liquidação', list), ...(maxRate ? { maxRate } : {}) });
    await c.move(id, 'start');
    return { c, id };
  }
  /** Ended: the scripted carrier sends no receipts, so its messages stay `sent`. */
  const completed = (x: Campaign) => x.status === 'COMPLETED' && x.counts.submitting === 0;

  it('a final refusal is `failed` and released; what the carrier took is `sent` and charged', async () => {
    carrier.reset();
    const rows = freshMobiles(2);
    const c = api(server, user.token);
    const list = await importList(server, user.token, rows);
    carrier.answer = (m) => (m.to === rows[0]!.phone ? 'fail' : 'take');
    const id = await c.create(smsCampaign('Recusa', list));
    await c.move(id, 'start');
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ counts: { sent: 1, failed: 1 }, credits: { reserved: 2, used: 1, released: 1 } });
  }, 60_000);

  it('"try later" sends the recipient back to the queue: a later batch sends it', async () => {
    carrier.reset();
    // The first batch's three attempts are refused, the next batch's taken.
    carrier.answer = (_m, n) => (n < 3 ? 'retry' : 'take');
    const { c, id } = await started(1);
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ counts: { sent: 1 }, credits: { reserved: 1, used: 1, released: 0 } });
    expect(carrier.submits).toHaveLength(4);
  }, 60_000);

  it('a pause: what was not handed over yet goes back to the queue, uncharged', async () => {
    carrier.reset();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    carrier.before = () => held;
    // One a second: the others wait for their turns when the campaign is paused.
    const { c, id } = await started(3, 1);
    try {
      while (carrier.submits.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await c.move(id, 'pause')).status).toBe('PAUSED');
    } finally {
      release();
    }
    const paused = await c.waitFor(id, (x) => x.counts.submitting === 0, 20_000);
    // The first one was on the wire; a loaded machine may have handed the second over before the pause.
    const handed = carrier.submits.length;
    expect(handed).toBeLessThan(3);
    expect(paused).toMatchObject({
      status: 'PAUSED',
      counts: { sent: handed, queued: 3 - handed },
      credits: { reserved: 3, used: handed, released: 0 },
    });
  }, 60_000);

  it('settles a submit the carrier may have taken (no answer) as `unknown`, charged, never sent again', async () => {
    carrier.reset();
    carrier.answer = () => 'unknown';
    const { c, id } = await started(1);
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ counts: { unknown: 1, sent: 0 }, credits: { reserved: 1, used: 1, released: 0 } });
    expect(carrier.submits).toHaveLength(1);
  }, 60_000);

  it('never hands over to a number opted out after the start: `opted_out`, its credit released', async () => {
    carrier.reset();
    const rows = freshMobiles(2);
    const c = api(server, user.token);
    const list = await importList(server, user.token, rows);
    // Started with the window closed, the first number opted out, then the window opened.
    const today = new Date(Date.now() - 3 * 3_600_000).getUTCDay();
    const id = await c.create({
      ...smsCampaign('Descadastro', list),
      window: { days: [(today + 1) % 7], start: '00:00', end: '24:00' },
    });
    await c.move(id, 'start');
    await dispatchSettled(server, id);
    await server.modules.optOuts.addReply(user.id, rows[0]!.phone);
    await sql(`update campaigns set "window" = $2 where id = $1`, [id, JSON.stringify(ALWAYS)]);
    void server.modules.dispatcher.run(id);
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ counts: { sent: 1, optedOut: 1 }, credits: { reserved: 2, used: 1, released: 1 } });
    expect(carrier.submits.map((s) => s.to)).toEqual([rows[1]!.phone]);
  }, 60_000);

  it('a batch settled after another process canceled the campaign: what the carrier took is charged, what it did not take is canceled and released', async () => {
    carrier.reset();
    const rows = freshMobiles(2);
    const refused = rows[0]!.phone;
    const c = api(server, user.token);
    const list = await importList(server, user.token, rows);
    const id = await c.create(smsCampaign('Cancelada por outro', list));
    carrier.answer = (m) => (m.to === refused ? 'retry' : 'take');
    // The refused one's last attempt: another process has canceled the campaign meanwhile.
    carrier.before = async (m, n) => {
      if (m.to === refused && n === 2) await sql(`update campaigns set status = 'CANCELED' where id = $1`, [id]);
    };
    await c.move(id, 'start');
    const done = await c.waitFor(id, (x) => x.finishedAt !== null && x.counts.submitting === 0, 20_000);
    expect(done).toMatchObject({
      status: 'CANCELED',
      counts: { sent: 1, canceled: 1, queued: 0 },
      credits: { reserved: 2, used: 1, released: 1 },
    });
    expect(carrier.submits.filter((s) => s.to === refused)).toHaveLength(3);
  }, 60_000);
});
