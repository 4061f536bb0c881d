import { randomUUID } from 'node:crypto';
import type { Campaign } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { Carrier } from './campaigns.dispatcher.test-support.ts';
import { dispatchQueue } from './campaigns.jobs.ts';
import {
  api,
  dispatchSettled,
  freshMobiles,
  importList,
  smsCampaign,
  startCarrierServer,
} from './campaigns.test-support.ts';

/**
 * The dispatch loop's own decisions (campaigns.dispatcher.ts), each seen from outside: how many
 * recipients one claim takes, when a carrier that answers "try later" pauses the campaign (and
 * when it does not), the backoff between such batches, the heartbeat, the sending window.
 *
 * The real server modules run on a real database; the carrier is a scripted one whose answer to
 * each submit the test sets (take it, "try later", refuse it for good), with the rate limit it
 * reports, and which records every submit and how many recipients the claim it came in took (the
 * rows one claim took share its transaction id, \`xmin\`; not its \`updated_at\`, which four loops
 * claiming in the same millisecond share too).
 */

describe('the dispatch loop: claims, carrier failures, heartbeat, window', () => {
  let handle: DbHandle;
  let server: RunningServer;
  let close: (() => Promise<void>) | undefined;
  let user: { id: string; token: string };
  const sql = async <T>(text: string, values: unknown[] = []) => (await handle.executeSql(text, values)).rows as T[];
  const carrier = new Carrier(async (messageId) => {
    const [row] = await sql<{ n: number }>(
      `select count(*)::int as n from messages m join messages one on one.id = $1
         where m.campaign_id = one.campaign_id and m.status = 'submitting' and m.xmin = one.xmin`,
      [messageId],
    );
    return row!.n;
  });

  beforeAll(async () => {
    ({ server, handle, close } = await startCarrierServer(carrier));
    user = await userWithCredits(server, 1000);
  }, 120_000);

  afterAll(async () => {
    await close?.();
  });

  /** A started SMS campaign to `count` fresh mobiles (`maxRate` if given), after the test tuned the carrier. */
  async function started(count: number, maxRate?: number) {
    const c = api(server, user.token);
    const list = await importList(server, user.token, freshMobiles(count));
    const id = await c.create({ ...smsCampaign('Despacho', list), ...(maxRate ? { maxRate } : {}) });
    await c.move(id, 'start');
    return { c, id };
  }
  /** Resolves once no dispatch job is waiting to start: every loop of the campaigns so far is under way. */
  async function loopsStarted(): Promise<void> {
    for (;;) {
      const [row] = await sql<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = $1 and state in ('created', 'retry')`,
        [dispatchQueue.name],
      );
      if (row!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  /** Ended: the scripted carrier sends no receipts, so its messages stay `sent`. */
  const completed = (x: Campaign) => x.status === 'COMPLETED' && x.counts.submitting === 0;
  const campaignRow = async (id: string) =>
    (
      await sql<{ provider_failures: number; heartbeat_at: Date | null }>(
        'select provider_failures, heartbeat_at from campaigns where id = $1',
        [id],
      )
    )[0]!;

  it.each([
    { why: 'a share of half a second at the campaign rate over four loops', maxRate: 20, tps: null, claim: 3 },
    { why: 'the slower of the campaign and the carrier rates', maxRate: 40, tps: 12, claim: 2 },
    { why: 'never less than one', maxRate: 4, tps: null, claim: 1 },
    {
      why: 'the whole batch size with no rate at all (a zero limit is no limit)',
      maxRate: undefined,
      tps: 0,
      claim: 6,
    },
  ])('one claim takes $claim recipients: $why', async ({ maxRate, tps, claim }) => {
    carrier.reset();
    carrier.tpsLimit = tps;
    const { c, id } = await started(6, maxRate);
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { sent: 6 } });
    expect(Math.max(...carrier.submits.map((s) => s.claimed))).toBe(claim);
  });

  it('pauses after three batches in a row the carrier only answered "try later", a second apart, with the last reason', async () => {
    carrier.reset();
    carrier.answer = () => 'retry';
    // Every loop of the campaign is under way before the first answer: the one that claimed both
    // recipients is the only one left, so its batches and its waits are the campaign's.
    carrier.before = () => loopsStarted();
    const { c, id } = await started(2);
    const paused = await c.waitFor(id, (x) => x.status === 'PAUSED', 20_000);
    expect(paused).toMatchObject({
      statusReason: 'PROVIDER_FAILING',
      statusDetail: 'SCRIPTED_THROTTLED: throttled',
      counts: { queued: 2, submitting: 0, failed: 0 },
    });
    expect((await campaignRow(id)).provider_failures).toBe(3);
    // Three attempts per recipient per batch: three batches, then nothing more.
    expect(carrier.submits).toHaveLength(2 * 3 * 3);
    // Between two batches the loop waits a second (the batch's own attempts wait 0.25 s and 0.5 s).
    const batchOf = (i: number) =>
      Math.floor(carrier.submits.slice(0, i).filter((s) => s.id === carrier.submits[i]!.id).length / 3);
    const times = (batch: number) => carrier.submits.filter((_, i) => batchOf(i) === batch).map((s) => s.at);
    expect(Math.min(...times(1)) - Math.max(...times(0))).toBeGreaterThanOrEqual(950);
    expect(Math.min(...times(2)) - Math.max(...times(1))).toBeGreaterThanOrEqual(950);
  }, 60_000);

  it('a batch the carrier took part of does not count towards the pause', async () => {
    // One recipient the carrier keeps refusing for now, among five it takes (all in one claim).
    const rows = freshMobiles(6);
    const refused = rows[0]!.phone;
    const c = api(server, user.token);
    const list = await importList(server, user.token, rows);
    carrier.reset();
    carrier.answer = (m) => (m.to === refused ? 'retry' : 'take');
    carrier.before = () => loopsStarted();
    const id2 = await c.create(smsCampaign('Parcial', list));
    await c.move(id2, 'start');
    const paused = await c.waitFor(id2, (x) => x.status === 'PAUSED', 20_000);
    expect(paused.counts).toMatchObject({ sent: 5, queued: 1 });
    // The mixed batch, then three batches of the refused one alone: four batches of three attempts.
    expect(carrier.submits.filter((s) => s.to === refused)).toHaveLength(4 * 3);
  }, 60_000);

  it('never pauses for final refusals, however many batches in a row', async () => {
    carrier.reset();
    carrier.answer = () => 'fail';
    // maxRate 8: one recipient per claim, four batches that each failed for good.
    const { c, id } = await started(4, 8);
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { failed: 4 }, credits: { used: 0, released: 4 } });
    expect(Math.max(...carrier.submits.map((s) => s.claimed))).toBe(1);
    expect((await campaignRow(id)).provider_failures).toBe(0);
  }, 60_000);

  it('forgets earlier "try later" batches once a batch goes through', async () => {
    carrier.reset();
    // Two batches of three refused attempts each, then taken.
    carrier.answer = (_m, n) => (n < 6 ? 'retry' : 'take');
    const { c, id } = await started(1);
    const done = await c.waitFor(id, completed, 20_000);
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { sent: 1 } });
    expect(carrier.submits).toHaveLength(7);
    expect((await campaignRow(id)).provider_failures).toBe(0);
  }, 60_000);

  it('beats for the campaign it works on', async () => {
    carrier.reset();
    const { c, id } = await started(2);
    await c.waitFor(id, completed, 20_000);
    expect((await campaignRow(id)).heartbeat_at).not.toBeNull();
  });

  it('sends nothing while the sending window is closed', async () => {
    carrier.reset();
    const c = api(server, user.token);
    const list = await importList(server, user.token, freshMobiles(2));
    // Only tomorrow (in São Paulo): closed all of today.
    const today = new Date(Date.now() - 3 * 3_600_000).getUTCDay();
    const id = await c.create({
      ...smsCampaign('Fora da janela', list),
      window: { days: [(today + 1) % 7], start: '00:00', end: '24:00' },
    });
    expect((await c.move(id, 'start')).status).toBe('RUNNING');
    await dispatchSettled(server, id);
    expect(carrier.submits).toHaveLength(0);
    expect((await c.get(id)).counts).toMatchObject({ queued: 2, submitting: 0 });
  }, 60_000);

  it.each([
    { why: "the campaign's rate", maxRate: 4, tps: null },
    { why: "the carrier's limit", maxRate: undefined, tps: 4 },
  ])(
    'with two processes alive, each sends at half of $why: five messages at 2 a second span 2 s',
    async ({ maxRate, tps }) => {
      carrier.reset();
      carrier.tpsLimit = tps;
      const other = randomUUID();
      await sql(
        'insert into dispatch_workers (id, heartbeat_at, started_at, pid, carriers) values ($1, now(), now(), 1, $2)',
        [other, server.providers.carriers.join(' ')],
      );
      await server.modules.supervisor.pass();
      try {
        expect(server.modules.supervisor.liveWorkers()).toBe(2);
        const { c, id } = await started(5, maxRate);
        expect(await c.waitFor(id, completed, 20_000)).toMatchObject({ counts: { sent: 5 } });
        // Evenly spaced at 4 ÷ 2 processes = 2 a second: four gaps of 0.5 s (the whole rate here would
        // take 1 s, twice it 0.5 s). Only a lower bound: a loaded machine may be slower, never faster.
        const times = carrier.submits.map((x) => x.at);
        expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(1_800);
      } finally {
        await sql('delete from dispatch_workers where id = $1', [other]);
        await server.modules.supervisor.pass();
      }
    },
    60_000,
  );

  it("two campaigns at once each keep their own rate: the slow one is not sped up by the fast one's", async () => {
    carrier.reset();
    const slow = await started(5, 2);
    const fast = await started(60, 40);
    await slow.c.waitFor(slow.id, completed, 20_000);
    await fast.c.waitFor(fast.id, completed, 20_000);
    // The slow campaign's five messages at 2 a second: four gaps of 0.5 s. Only a lower bound (a
    // loaded machine may be slower); one pace shared by both would hand them over at up to 40 a second.
    const slowRecipients = new Set(
      (await sql<{ id: string }>('select id from messages where campaign_id = $1', [slow.id])).map((m) => m.id),
    );
    const times = carrier.submits.filter((s) => slowRecipients.has(s.id)).map((s) => s.at);
    expect(times).toHaveLength(5);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(1_800);
  }, 60_000);

  it('counts its batches and the time spent claiming, checking opt-outs, handing over and settling', async () => {
    carrier.reset();
    const before = server.modules.dispatcher.stats();
    const t0 = performance.now();
    // maxRate 8: one recipient per claim, four batches.
    const { c, id } = await started(4, 8);
    await c.waitFor(id, completed, 20_000);
    // Every loop of the campaign has ended (a loop's time is counted when it ends).
    await dispatchSettled(server, id);
    const after = server.modules.dispatcher.stats();
    const elapsed = performance.now() - t0;
    expect(Object.keys(after).sort()).toEqual(['batches', 'claimMs', 'loopMs', 'optOutsMs', 'settleMs', 'submitMs']);
    expect(after.batches - before.batches).toBe(4);
    for (const phase of ['claimMs', 'optOutsMs', 'submitMs', 'settleMs', 'loopMs'] as const) {
      // Summed over the campaign's loops, at most four at once here: more than none, less than four times the test.
      const spent = after[phase] - before[phase];
      expect(spent, phase).toBeGreaterThan(0);
      expect(spent, phase).toBeLessThanOrEqual(4 * elapsed);
    }
  }, 60_000);

  it('beats once when it starts on a campaign, not before every claim (every 5 s at most)', async () => {
    carrier.reset();
    // maxRate 2: one recipient per claim, handed over half a second apart.
    const { c, id } = await started(3, 2);
    await c.waitFor(id, completed, 20_000);
    const beat = (await campaignRow(id)).heartbeat_at!.getTime();
    const times = carrier.submits.map((s) => s.at).sort((a, b) => a - b);
    expect(times).toHaveLength(3);
    // The beat came before the first claim; a beat before each claim would come after the second submit.
    expect(beat).toBeLessThan(times[1]!);
  }, 60_000);

  it('a loop on a campaign that is not RUNNING (paused) ends at once: no beat, no claim', async () => {
    carrier.reset();
    const c = api(server, user.token);
    const list = await importList(server, user.token, freshMobiles(2));
    // Started with the window closed (no loop sends), paused, then the window opened.
    const today = new Date(Date.now() - 3 * 3_600_000).getUTCDay();
    const id = await c.create({
      ...smsCampaign('Pausada', list),
      window: { days: [(today + 1) % 7], start: '00:00', end: '24:00' },
    });
    await c.move(id, 'start');
    await dispatchSettled(server, id);
    expect((await c.move(id, 'pause')).status).toBe('PAUSED');
    await sql(`update campaigns set "window" = $2, heartbeat_at = null where id = $1`, [
      id,
      JSON.stringify({ days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' }),
    ]);
    await server.modules.dispatcher.run(id);
    expect(carrier.submits).toHaveLength(0);
    expect((await campaignRow(id)).heartbeat_at).toBeNull();
    expect((await c.get(id)).counts).toMatchObject({ queued: 2, submitting: 0 });
  }, 60_000);

  /** A carrier that holds every submit until `release()`; `out()` resolves once the first is held. */
  function holdCarrier() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    carrier.before = () => held;
    const out = async () => {
      while (carrier.submits.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    return { release, out };
  }

  it("keeps the rows of its batch out fresh: a refresh moves their `updated_at` (the cut-off's clock) to now", async () => {
    carrier.reset();
    const hold = holdCarrier();
    // No rate: one claim takes both, one batch.
    const { c, id } = await started(2);
    try {
      await hold.out();
      await sql(`update messages set updated_at = now() - interval '11 minutes' where campaign_id = $1`, [id]);
      await server.modules.dispatcher.refreshClaims();
      const rows = await sql<{ status: string; fresh: boolean }>(
        `select status, updated_at > now() - interval '1 minute' as fresh from messages where campaign_id = $1`,
        [id],
      );
      expect(rows).toEqual([
        { status: 'submitting', fresh: true },
        { status: 'submitting', fresh: true },
      ]);
    } finally {
      hold.release();
    }
    expect(await c.waitFor(id, completed, 20_000)).toMatchObject({ counts: { sent: 2 } });
  }, 60_000);

  it("sees another process's pause within a second: nothing more is handed over, the rest goes back", async () => {
    carrier.reset();
    const hold = holdCarrier();
    // One a second: the third recipient's turn is 2 s away when the campaign is paused.
    const { c, id } = await started(3, 1);
    try {
      await hold.out();
      // Paused by another process: only the database knows.
      await sql(`update campaigns set status = 'PAUSED' where id = $1`, [id]);
      const deadline = Date.now() + 10_000;
      while (!carrier.lastSignal?.aborted && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(carrier.lastSignal?.aborted).toBe(true);
    } finally {
      hold.release();
    }
    const paused = await c.waitFor(id, (x) => x.counts.submitting === 0, 20_000);
    const handed = carrier.submits.length;
    expect(handed).toBeLessThan(3);
    expect(paused).toMatchObject({ status: 'PAUSED', counts: { sent: handed, queued: 3 - handed } });
  }, 60_000);

  it('a loop on a campaign that does not exist ends quietly', async () => {
    await expect(server.modules.dispatcher.run(randomUUID())).resolves.toBeUndefined();
  });

  describe('a settle that fails (the database refused its transaction)', () => {
    /**
     * Until dropped, every settle of `campaignId`'s recipients fails while `attempts` (a sequence:
     * it counts on through the rollbacks) is at most `failures`: the transaction that moves a
     * recipient out of `submitting` raises.
     */
    async function refuseSettles(campaignId: string, failures: number) {
      const name = `settle_${campaignId.replaceAll('-', '')}`;
      await sql(`create sequence ${name}`);
      await sql(`create function ${name}() returns trigger language plpgsql as $$
        begin
          if nextval('${name}') <= ${failures} then raise exception 'settle refused'; end if;
          return new;
        end $$`);
      await sql(`create trigger ${name} before update on messages for each row
        when (old.campaign_id = '${campaignId}' and old.status = 'submitting' and new.status <> 'submitting')
        execute function ${name}()`);
      return {
        attempts: async () => (await sql<{ n: string }>(`select last_value as n from ${name}`))[0]!.n,
        drop: async () => {
          await sql(`drop trigger ${name} on messages`);
          await sql(`drop function ${name}()`);
          await sql(`drop sequence ${name}`);
        },
      };
    }

    it('is tried again: two failures, then the third attempt stores the batch', async () => {
      carrier.reset();
      const c = api(server, user.token);
      const list = await importList(server, user.token, freshMobiles(1));
      const id = await c.create(smsCampaign('Reacertada', list));
      const refusal = await refuseSettles(id, 2);
      try {
        await c.move(id, 'start');
        const done = await c.waitFor(id, completed, 20_000);
        expect(done).toMatchObject({ counts: { sent: 1 }, credits: { reserved: 1, used: 1, released: 0 } });
        expect(Number(await refusal.attempts())).toBe(3);
        expect(carrier.submits).toHaveLength(1);
      } finally {
        await refusal.drop();
      }
    }, 60_000);

    it('gives up after three attempts: the batch stays claimed for the cut-off, nothing is tried a fourth time', async () => {
      carrier.reset();
      const c = api(server, user.token);
      const list = await importList(server, user.token, freshMobiles(1));
      const id = await c.create(smsCampaign('Recusada', list));
      const refusal = await refuseSettles(id, 1_000);
      try {
        await c.move(id, 'start');
        // Every dispatch job of the campaign ended: the loop that held the batch gave up.
        await dispatchSettled(server, id);
        expect(Number(await refusal.attempts())).toBe(3);
        expect((await c.get(id)).counts).toMatchObject({ submitting: 1, sent: 0 });
        expect(carrier.submits).toHaveLength(1);
      } finally {
        await refusal.drop();
        // Not left RUNNING for the supervisor's later passes.
        await sql(`update messages set status = 'unknown' where campaign_id = $1 and status = 'submitting'`, [id]);
        await sql(`update campaigns set status = 'CANCELED', finished_at = now() where id = $1`, [id]);
      }
    }, 60_000);
  });

  it('shares the rates among the live dispatching processes: with two alive, a claim is half as big', async () => {
    carrier.reset();
    // Another process beats besides this one; the supervisor's pass counts them.
    const other = randomUUID();
    // On the same carrier accounts: a process with carriers of its own would share nothing with this one.
    await sql(
      'insert into dispatch_workers (id, heartbeat_at, started_at, pid, carriers) values ($1, now(), now(), 1, $2)',
      [other, server.providers.carriers.join(' ')],
    );
    await server.modules.supervisor.pass();
    try {
      expect(server.modules.supervisor.liveWorkers()).toBe(2);
      // 40 a second shared by two: 20 here, half a second of it over four loops → 3 (alone: 5).
      const { c, id } = await started(6, 40);
      expect(await c.waitFor(id, completed, 20_000)).toMatchObject({ counts: { sent: 6 } });
      expect(Math.max(...carrier.submits.map((s) => s.claimed))).toBe(3);
    } finally {
      await sql('delete from dispatch_workers where id = $1', [other]);
      await server.modules.supervisor.pass();
    }
  }, 60_000);
});
