import type { Campaign } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { Carrier } from './campaigns.dispatcher.test-support.ts';
import {
  ALWAYS,
  api,
  dispatchJobsQueued,
  dispatchSettled,
  freshMobiles,
  importList,
  smsCampaign,
  startCarrierServer,
} from './campaigns.test-support.ts';

/**
 * A process's dispatch loops themselves (campaigns.dispatcher.ts), seen from outside: what a loop
 * whose job was called off does, at most four loops per campaign, a join of a campaign already
 * worked on or whose loops are over, the watch's heartbeat while a batch is out, which batches
 * out get their rows refreshed (not a hung one, not one whose settle gave up), the waits between
 * settle attempts and after a batch the carrier took, and a stopped dispatcher.
 *
 * The real server modules run on a real database with a scripted carrier (the loops of the other
 * dispatcher tests: campaigns.dispatcher.test.ts). Most tests drive one loop by hand on an idle
 * RUNNING campaign: started while its sending window was closed (the start's loops ended at
 * once), then the window opened, so no loop works on it until the test runs one.
 */
describe('the dispatch loops of a process: job signal, loop cap, join, watch, batches out, stop', () => {
  let handle: DbHandle;
  let server: RunningServer;
  let close: (() => Promise<void>) | undefined;
  let user: { id: string; token: string };
  const sql = async <T>(text: string, values: unknown[] = []) => (await handle.executeSql(text, values)).rows as T[];
  const carrier = new Carrier(async () => 0);
  /** A second carrier, for flash SMS: each carrier's rate is its own. */
  const flash = new Carrier(async () => 0, 'dispatch-scripted-flash', ['sms_flash']);
  const dispatcher = () => server.modules.dispatcher;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    ({ server, handle, close } = await startCarrierServer([carrier, flash]));
    user = await userWithCredits(server, 1000);
  }, 120_000);

  afterAll(async () => {
    await close?.();
  });

  /** Ended: the scripted carrier sends no receipts, so its messages stay `sent`. */
  const completed = (x: Campaign) => x.status === 'COMPLETED' && x.counts.submitting === 0;

  /** A started SMS campaign to `count` fresh mobiles (`maxRate` if given): the start's four loops send it. */
  async function started(count: number, maxRate?: number) {
    const c = api(server, user.token);
    const list = await importList(server, user.token, freshMobiles(count));
    const id = await c.create({ ...smsCampaign('Laços', list), ...(maxRate ? { maxRate } : {}) });
    await c.move(id, 'start');
    return { c, id };
  }

  /**
   * A RUNNING campaign to `count` fresh mobiles, in its sending window, that no loop works on: it
   * was started with its window closed (every loop of the start ended at once), then the window opened.
   */
  async function idle(count: number, maxRate?: number) {
    const c = api(server, user.token);
    const list = await importList(server, user.token, freshMobiles(count));
    // Only tomorrow (in São Paulo): closed all of today.
    const today = new Date(Date.now() - 3 * 3_600_000).getUTCDay();
    const id = await c.create({
      ...smsCampaign('Parada', list),
      ...(maxRate ? { maxRate } : {}),
      window: { days: [(today + 1) % 7], start: '00:00', end: '24:00' },
    });
    expect((await c.move(id, 'start')).status).toBe('RUNNING');
    await dispatchSettled(server, id);
    await sql(`update campaigns set "window" = $2 where id = $1`, [id, JSON.stringify(ALWAYS)]);
    expect(carrier.submits).toHaveLength(0);
    return { c, id };
  }

  /** 'ended' if `loop` ends within `ms`, else 'running'. */
  const within = (ms: number, loop: Promise<void>) =>
    Promise.race([loop.then(() => 'ended' as const), sleep(ms).then(() => 'running' as const)]);

  /** Polls `check` every 20 ms until it holds or `ms` passed; its last answer. */
  async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (await check()) return true;
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
  }

  /** A carrier that holds every submit until `release()`; `out()` resolves once the first is held. */
  function holdCarrier() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    carrier.before = () => held;
    const out = async () => {
      while (carrier.submits.length === 0) await sleep(20);
    };
    return { release, out };
  }

  const dispatchJobs = (id: string) => dispatchJobsQueued(handle, id);
  const recipients = (id: string) =>
    sql<{ status: string; fresh: boolean }>(
      `select status, updated_at > now() - interval '1 minute' as fresh from messages where campaign_id = $1`,
      [id],
    );
  const heartbeat = async (id: string) =>
    (await sql<{ heartbeat_at: Date | null }>('select heartbeat_at from campaigns where id = $1', [id]))[0]!
      .heartbeat_at;

  it("a loop whose job was called off (pg-boss's signal) hands nothing over and queues no job; a later join sends it all", async () => {
    carrier.reset();
    const { c, id } = await idle(3);
    const jobs = await dispatchJobs(id);
    const calledOff = AbortSignal.abort();
    // Four of them: the campaign's share of loops here, were they not over.
    for (let i = 0; i < 4; i++) expect(await within(10_000, dispatcher().run(id, calledOff))).toBe('ended');
    expect(carrier.submits).toHaveLength(0);
    // Not its time slice that ended: no fresh job goes on for it.
    expect(await dispatchJobs(id)).toBe(jobs);
    expect((await c.get(id)).counts).toMatchObject({ queued: 3, submitting: 0 });
    // Those loops are over and forgotten: the supervisor's join starts a fresh one.
    dispatcher().join(id);
    expect(await c.waitFor(id, completed, 20_000)).toMatchObject({ counts: { sent: 3 } });
    expect(carrier.submits).toHaveLength(3);
  }, 60_000);

  it('works a campaign with four loops at most: a fifth run while four are out returns at once', async () => {
    carrier.reset();
    const hold = holdCarrier();
    // maxRate 8: one recipient per claim; the start's four loops each hold one at the carrier.
    const { c, id } = await started(6, 8);
    try {
      expect(await until(() => carrier.submits.length === 4, 20_000)).toBe(true);
      expect(await within(5_000, dispatcher().run(id))).toBe('ended');
      expect(carrier.submits).toHaveLength(4);
      expect((await recipients(id)).filter((r) => r.status === 'submitting')).toHaveLength(4);
    } finally {
      hold.release();
    }
    expect(await c.waitFor(id, completed, 20_000)).toMatchObject({ counts: { sent: 6 } });
  }, 60_000);

  it('a join leaves a campaign it already works on be: no second loop', async () => {
    carrier.reset();
    // maxRate 8: one recipient per claim, eight a second.
    const { c, id } = await idle(3, 8);
    const hold = holdCarrier();
    const loop = dispatcher().run(id);
    try {
      await hold.out();
      dispatcher().join(id);
      // A second loop would claim the next recipient and hand it over within an eighth of a second.
      await sleep(1_500);
      expect(carrier.submits).toHaveLength(1);
      expect((await recipients(id)).filter((r) => r.status === 'submitting')).toHaveLength(1);
    } finally {
      hold.release();
    }
    await loop;
    expect(await c.get(id)).toMatchObject({ status: 'COMPLETED', counts: { sent: 3 } });
    expect(carrier.submits).toHaveLength(3);
  }, 60_000);

  it('claims again at once after a batch the carrier took: the one-second wait is for "try later" only', async () => {
    carrier.reset();
    // maxRate 8: one recipient per claim, three batches an eighth of a second apart.
    const { c, id } = await idle(3, 8);
    const t0 = Date.now();
    await dispatcher().run(id);
    const took = Date.now() - t0;
    expect(carrier.submits).toHaveLength(3);
    expect(await c.get(id)).toMatchObject({ status: 'COMPLETED', counts: { sent: 3 } });
    // A second's wait after each batch would take three seconds at least.
    expect(took).toBeLessThan(2_500);
  }, 60_000);

  it("keeps beating for its campaign while a batch is out longer than the heartbeat's five seconds", async () => {
    carrier.reset();
    const { c, id } = await idle(1);
    const hold = holdCarrier();
    const loop = dispatcher().run(id);
    try {
      await hold.out();
      // The loop beat before it claimed; it waits on the carrier now, so only the watch can beat.
      await sql('update campaigns set heartbeat_at = null where id = $1', [id]);
      expect(await until(async () => (await heartbeat(id)) !== null, 10_000)).toBe(true);
      expect(carrier.submits).toHaveLength(1);
      expect((await recipients(id)).map((r) => r.status)).toEqual(['submitting']);
    } finally {
      hold.release();
    }
    await loop;
    expect(await c.get(id)).toMatchObject({ status: 'COMPLETED', counts: { sent: 1 } });
  }, 60_000);

  it('does not refresh the rows of a batch out five minutes or more (a hung loop): the cut-off settles them', async () => {
    carrier.reset();
    const { c, id } = await idle(2);
    const hold = holdCarrier();
    // The process's clock stands still from before the batch goes out, so its time out is exact.
    const realNow = Date.now.bind(Date);
    const t0 = realNow();
    let now: number | undefined = t0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now ?? realNow());
    let loop: Promise<void> | undefined;
    try {
      loop = dispatcher().run(id);
      await hold.out();
      const stale = () =>
        sql(`update messages set updated_at = now() - interval '11 minutes' where campaign_id = $1`, [id]);
      await stale();
      now = t0 + 5 * 60_000;
      await dispatcher().refreshClaims();
      expect(await recipients(id)).toEqual([
        { status: 'submitting', fresh: false },
        { status: 'submitting', fresh: false },
      ]);
      // A millisecond earlier it was not hung yet: refreshed.
      now = t0 + 5 * 60_000 - 1;
      await dispatcher().refreshClaims();
      expect(await recipients(id)).toEqual([
        { status: 'submitting', fresh: true },
        { status: 'submitting', fresh: true },
      ]);
    } finally {
      now = undefined;
      clock.mockRestore();
      hold.release();
    }
    await loop;
    expect(await c.get(id)).toMatchObject({ status: 'COMPLETED', counts: { sent: 2 } });
  }, 60_000);

  describe('a settle that keeps failing (the database refuses its transaction)', () => {
    /** Every settle of `campaignId`'s recipients fails until dropped; `attempts` counts them. */
    async function refuseSettles(campaignId: string) {
      const name = `refuse_${campaignId.replaceAll('-', '')}`;
      await sql(`create sequence ${name}`);
      await sql(`create function ${name}() returns trigger language plpgsql as $$
        begin
          perform nextval('${name}');
          raise exception 'settle refused';
        end $$`);
      await sql(`create trigger ${name} before update on messages for each row
        when (old.campaign_id = '${campaignId}' and old.status = 'submitting' and new.status <> 'submitting')
        execute function ${name}()`);
      return {
        attempts: async () => Number((await sql<{ n: string }>(`select last_value as n from ${name}`))[0]!.n),
        drop: async () => {
          await sql(`drop trigger ${name} on messages`);
          await sql(`drop function ${name}()`);
          await sql(`drop sequence ${name}`);
        },
      };
    }

    it('is tried three times, half a second then a second apart; its batch is then no longer refreshed', async () => {
      carrier.reset();
      const { c, id } = await idle(1);
      const refusal = await refuseSettles(id);
      try {
        await expect(dispatcher().run(id)).rejects.toThrow();
        const gaveUp = Date.now();
        expect(await refusal.attempts()).toBe(3);
        expect(carrier.submits).toHaveLength(1);
        // Handed over, then three settles with waits of 0.5 s and 1 s between them.
        expect(gaveUp - carrier.submits[0]!.at).toBeGreaterThanOrEqual(1_500);
        // Not out any more: its rows are left for the supervisor's cut-off.
        await sql(`update messages set updated_at = now() - interval '11 minutes' where campaign_id = $1`, [id]);
        await dispatcher().refreshClaims();
        expect(await recipients(id)).toEqual([{ status: 'submitting', fresh: false }]);
        expect((await c.get(id)).counts).toMatchObject({ submitting: 1, sent: 0 });
      } finally {
        await refusal.drop();
        // Not left RUNNING for later loops.
        await sql(`update messages set status = 'unknown' where campaign_id = $1 and status = 'submitting'`, [id]);
        await sql(`update campaigns set status = 'CANCELED', finished_at = now() where id = $1`, [id]);
      }
    }, 60_000);
  });

  it('a loop whose time slice ends hands the campaign over to a fresh job, which goes on with it', async () => {
    carrier.reset();
    // maxRate 8: one recipient per claim.
    const { c, id } = await idle(3, 8);
    const jobs = await dispatchJobs(id);
    const hold = holdCarrier();
    // The loop's five-minute slice, ended by the test (AbortSignal.timeout's timer cannot be moved).
    const slice = new AbortController();
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementationOnce(() => slice.signal);
    let loop: Promise<void>;
    try {
      loop = dispatcher().run(id);
      expect(timeout).toHaveBeenCalledWith(5 * 60_000);
    } finally {
      timeout.mockRestore();
    }
    try {
      await hold.out();
      slice.abort();
    } finally {
      hold.release();
    }
    await loop;
    // The batch out was settled; the loop queued one job for the campaign and ended.
    expect(carrier.submits.length).toBeGreaterThanOrEqual(1);
    expect(await dispatchJobs(id)).toBe(jobs + 1);
    expect(await c.waitFor(id, completed, 20_000)).toMatchObject({ counts: { sent: 3 } });
  }, 60_000);

  it("a halted crew's last loop leaves the crew that took over be: a join finds the campaign worked on", async () => {
    carrier.reset();
    // maxRate 8: one recipient per claim.
    const { c, id } = await idle(3, 8);
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    let releaseRest!: () => void;
    const rest = new Promise<void>((resolve) => (releaseRest = resolve));
    carrier.before = () => (carrier.submits.length === 1 ? first : rest);
    const halted = dispatcher().run(id);
    let current: Promise<void> | undefined;
    try {
      expect(await until(() => carrier.submits.length === 1, 10_000)).toBe(true);
      // Paused and resumed at once by this process: the halted loop has its batch out still.
      dispatcher().halt(id);
      current = dispatcher().run(id);
      expect(await until(() => carrier.submits.length === 2, 10_000)).toBe(true);
      releaseFirst();
      await halted;
      // The new crew's loop still works on the campaign: a join adds no loop.
      dispatcher().join(id);
      await sleep(1_500);
      expect(carrier.submits).toHaveLength(2);
    } finally {
      releaseFirst();
      releaseRest();
    }
    await current;
    expect(await c.get(id)).toMatchObject({ status: 'COMPLETED', counts: { sent: 3 } });
    expect(carrier.submits).toHaveLength(3);
  }, 60_000);

  it('each carrier keeps its own pace: two carriers at one a second send their campaigns side by side', async () => {
    carrier.reset();
    flash.reset();
    carrier.tpsLimit = 1;
    flash.tpsLimit = 1;
    try {
      const c = api(server, user.token);
      const shortList = await importList(server, user.token, freshMobiles(3));
      const flashList = await importList(server, user.token, freshMobiles(3));
      const short = await c.create(smsCampaign('Curta', shortList));
      const flashed = await c.create({ ...smsCampaign('Relâmpago', flashList), channel: 'sms_flash' });
      await c.move(short, 'start');
      await c.move(flashed, 'start');
      expect(await c.waitFor(short, completed, 20_000)).toMatchObject({ counts: { sent: 3 } });
      expect(await c.waitFor(flashed, completed, 20_000)).toMatchObject({ counts: { sent: 3 } });
      const span = (times: number[]) => Math.max(...times) - Math.min(...times);
      const shortTimes = carrier.submits.map((s) => s.at);
      const flashTimes = flash.submits.map((s) => s.at);
      expect(shortTimes).toHaveLength(3);
      expect(flashTimes).toHaveLength(3);
      // Each at its carrier's one a second: two gaps of a second (a lower bound: a loaded machine is slower).
      expect(span(shortTimes)).toBeGreaterThanOrEqual(1_800);
      expect(span(flashTimes)).toBeGreaterThanOrEqual(1_800);
      // Side by side: one pace shared by both carriers would hand the six over a second apart, 5 s at least.
      expect(span([...shortTimes, ...flashTimes])).toBeLessThan(4_000);
    } finally {
      carrier.reset();
      flash.reset();
    }
  }, 60_000);

  // Last: it stops this file's dispatcher.
  it('once stopped, starts no loop: nothing is claimed, no loop time is counted', async () => {
    carrier.reset();
    const { c, id } = await idle(1);
    await dispatcher().stop();
    const before = dispatcher().stats();
    await dispatcher().run(id);
    dispatcher().join(id);
    await sleep(500);
    expect(dispatcher().stats()).toEqual(before);
    expect(carrier.submits).toHaveLength(0);
    expect((await c.get(id)).counts).toMatchObject({ queued: 1, submitting: 0 });
  }, 60_000);
});
