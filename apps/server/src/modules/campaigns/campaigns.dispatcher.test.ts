import { randomUUID } from 'node:crypto';
import type { Campaign, Channel } from '@ecoa/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import {
  type ChannelProvider,
  type OutboundMessage,
  ProviderError,
  type ProviderHealth,
  type SubmitResult,
} from '../channels/provider.ts';
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
 * rows one claim statement took share its \`updated_at\`; a campaign has up to four loops).
 */

type Answer = 'take' | 'retry' | 'fail';
type Submit = { id: string; to: string; at: number; claimed: number };

class Carrier implements ChannelProvider {
  readonly name = 'dispatch-scripted';
  readonly channels: readonly Channel[] = ['sms_short'];
  readonly webhooks = [];
  tpsLimit: number | null = null;
  /** How the carrier answers a submit (`n`: how many times it saw this message before). */
  answer: (message: OutboundMessage, n: number) => Answer = () => 'take';
  /** Awaited before each answer (a test holds the carrier until every loop of the campaign started). */
  before: () => Promise<void> = async () => {};
  readonly submits: Submit[] = [];
  private seq = 0;
  constructor(private readonly claimedNow: (messageId: string) => Promise<number>) {}

  async submit(message: OutboundMessage): Promise<SubmitResult> {
    const n = this.submits.filter((s) => s.id === message.id).length;
    const claimed = await this.claimedNow(message.id);
    this.submits.push({ id: message.id, to: message.to, at: Date.now(), claimed });
    await this.before();
    const answer = this.answer(message, n);
    if (answer === 'retry') throw new ProviderError('SCRIPTED_THROTTLED', 'throttled', { retryable: true });
    if (answer === 'fail') throw new ProviderError('SCRIPTED_INVALID', 'invalid destination');
    return { providerMessageIds: [`ds-${++this.seq}`] };
  }
  onEvent(): void {}
  health(): ProviderHealth {
    const { tpsLimit } = this;
    return {
      provider: this.name,
      mode: 'simulator',
      connected: true,
      tpsLimit,
      tpsInUse: 0,
      inFlight: 0,
      lastError: null,
    };
  }
  async close(): Promise<void> {}
  reset(): void {
    this.submits.length = 0;
    this.tpsLimit = null;
    this.answer = () => 'take';
    this.before = async () => {};
  }
}

describe('the dispatch loop: claims, carrier failures, heartbeat, window', () => {
  let handle: DbHandle;
  let server: RunningServer;
  let close: (() => Promise<void>) | undefined;
  let user: { id: string; token: string };
  const sql = async <T>(text: string, values: unknown[] = []) => (await handle.executeSql(text, values)).rows as T[];
  const carrier = new Carrier(async (messageId) => {
    const [row] = await sql<{ n: number }>(
      `select count(*)::int as n from messages m join messages one on one.id = $1
         where m.campaign_id = one.campaign_id and m.status = 'submitting' and m.updated_at = one.updated_at`,
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
      await sql('insert into dispatch_workers (id, heartbeat_at, started_at, pid) values ($1, now(), now(), 1)', [
        other,
      ]);
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

  it('shares the rates among the live dispatching processes: with two alive, a claim is half as big', async () => {
    carrier.reset();
    // Another process beats besides this one; the supervisor's pass counts them.
    const other = randomUUID();
    await sql('insert into dispatch_workers (id, heartbeat_at, started_at, pid) values ($1, now(), now(), 1)', [other]);
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
