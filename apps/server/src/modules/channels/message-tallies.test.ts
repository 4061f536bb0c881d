import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type ChannelsUser, userWithCredits } from './channels.test-support.ts';
import { createMessageTalliesRepository } from './message-tallies.repository.ts';
import { createMessageTallies, type MessageTallies } from './message-tallies.ts';

/**
 * The tallies the campaign screens and the home page read instead of counting `messages`
 * (issue 24): kept by the database's triggers whatever statement moves the rows, so any sequence
 * of inserts, updates, deletes and folds leaves them equal to a recount.
 */
describe(`message tallies equal a recount after any moves (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;
  let tallies: MessageTallies;
  const q = async <T>(text: string, values: unknown[] = []) => (await server.db.executeSql(text, values)).rows as T[];

  beforeAll(async () => {
    server = await createTestServer({ isolated: true });
    user = await userWithCredits(server);
    tallies = createMessageTallies(createMessageTalliesRepository(server.db.db));
  });
  afterAll(async () => {
    await server?.close();
  });

  const STATUSES = ['queued', 'submitting', 'sent', 'delivered', 'failed', 'expired', 'unknown', 'canceled'] as const;
  const REASONS = [null, 'CARRIER_REJECTED', 'EXPIRED'] as const;
  type Move =
    | { kind: 'insert'; campaign: number; rows: number; daysAgo: number }
    | {
        kind: 'update';
        campaign: number;
        every: number;
        status: (typeof STATUSES)[number];
        reason: (typeof REASONS)[number];
        submittedSecond: number | null;
        finishedSecond: number | null;
      }
    | { kind: 'delete'; campaign: number; every: number }
    | { kind: 'fold'; what: 'campaigns' | 'all' };

  const move: fc.Arbitrary<Move> = fc.oneof(
    fc.record({
      kind: fc.constant('insert' as const),
      campaign: fc.integer({ min: 0, max: 2 }),
      rows: fc.integer({ min: 1, max: 40 }),
      daysAgo: fc.integer({ min: 0, max: 2 }),
    }),
    fc.record({
      kind: fc.constant('update' as const),
      campaign: fc.integer({ min: 0, max: 2 }),
      every: fc.integer({ min: 1, max: 4 }),
      status: fc.constantFrom(...STATUSES),
      reason: fc.constantFrom(...REASONS),
      submittedSecond: fc.option(fc.integer({ min: 0, max: 5 })),
      finishedSecond: fc.option(fc.integer({ min: 0, max: 5 })),
    }),
    fc.record({
      kind: fc.constant('delete' as const),
      campaign: fc.integer({ min: 0, max: 2 }),
      every: fc.integer({ min: 2, max: 5 }),
    }),
    fc.record({ kind: fc.constant('fold' as const), what: fc.constantFrom('campaigns' as const, 'all' as const) }),
  );

  /** Campaign 2 stands for messages of no campaign (test sends). */
  async function apply(m: Move, campaigns: (string | null)[]): Promise<void> {
    if (m.kind === 'fold') {
      if (m.what === 'all') await tallies.foldAll();
      else await createMessageTalliesRepository(server.db.db).foldCampaigns(campaigns.filter((c) => c !== null));
      return;
    }
    const campaign = campaigns[m.campaign] ?? null;
    const mine = `user_id = $1 and campaign_id is not distinct from $2::uuid`;
    if (m.kind === 'insert') {
      await q(
        `insert into messages (user_id, campaign_id, channel, to_phone, status, parts, provider, content, created_at)
         select $1, $2::uuid, 'sms_short', '+55119' || lpad(g::text, 8, '0'), 'queued', 1, 'smpp', '{}'::jsonb,
                now() - make_interval(days => $3)
         from generate_series(1, $4) g`,
        [user.id, campaign, m.daysAgo, m.rows],
      );
    } else if (m.kind === 'update') {
      const second = (s: number | null) => (s === null ? null : new Date(Date.UTC(2026, 10, 27, 12, 0, s, 250)));
      await q(
        `update messages set status = $3, reason = $4, submitted_at = $5, finished_at = $6
         where ${mine} and abs(hashtext(id::text)) % $7 = 0`,
        [user.id, campaign, m.status, m.reason, second(m.submittedSecond), second(m.finishedSecond), m.every],
      );
    } else {
      await q(`delete from messages where ${mine} and abs(hashtext(id::text)) % $3 = 0`, [user.id, campaign, m.every]);
    }
  }

  it('any sequence of inserts, updates, deletes and folds: campaigns, days and seconds equal a recount', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 12 }), async (moves) => {
        const campaigns = [randomUUID(), randomUUID(), null];
        for (const m of moves) await apply(m, campaigns);
        for (const id of campaigns.slice(0, 2) as string[]) {
          expect(await tallies.differences(id)).toEqual([]);
          const [counted] = await q<Record<string, number>>(
            `select count(*)::int as total, (count(*) filter (where submitted_at is not null))::int as submitted,
                    (count(*) filter (where status = 'delivered'))::int as delivered
             from messages where campaign_id = $1`,
            [id],
          );
          const tally = (await tallies.campaigns([id])).get(id)!;
          expect({
            total: Object.values(tally.counts).reduce((a, b) => a + b, 0),
            submitted: tally.submitted,
            delivered: tally.counts.delivered,
          }).toEqual(counted);
        }
        const days = await q<{ day: string; sent: number; delivered: number }>(
          `select to_char(created_at at time zone 'America/Sao_Paulo', 'YYYY-MM-DD') as day,
                  (count(*) filter (where submitted_at is not null))::int as sent,
                  (count(*) filter (where status = 'delivered'))::int as delivered
           from messages where user_id = $1 group by 1 having count(*) filter (where submitted_at is not null or status = 'delivered') > 0
           order by 1`,
          [user.id],
        );
        const since = new Date(Date.now() - 10 * 86_400_000);
        expect(
          (await tallies.perDay(user.id, since)).map(({ day, sent, delivered }) => ({ day, sent, delivered })),
        ).toEqual(days);
      }),
      { numRuns: dbKind === 'pglite' ? 15 : 25 },
    );
  });

  it('a read that meets many rows of differences folds them, and says the same before and after', async () => {
    const id = randomUUID();
    await q(
      `insert into messages (user_id, campaign_id, channel, to_phone, status, parts, provider, content)
       select $1, $2, 'sms_short', '+5511900000000', 'queued', 1, 'smpp', '{}'::jsonb from generate_series(1, 300)`,
      [user.id, id],
    );
    // One statement per row, as a slow carrier's receipts would: 300 rows of differences.
    for (let i = 0; i < 300; i++)
      await q(
        `update messages set status = 'delivered', submitted_at = now(), finished_at = now()
         where id = (select id from messages where campaign_id = $1 and status = 'queued' limit 1)`,
        [id],
      );
    const rows = async () =>
      Number(
        (await q<{ n: number }>(`select count(*)::int as n from message_tallies where campaign_id = $1`, [id]))[0]!.n,
      );
    expect(await rows()).toBeGreaterThan(300);
    const before = (await tallies.campaigns([id])).get(id)!;
    expect(before.counts.delivered).toBe(300);
    expect(await rows()).toBeLessThanOrEqual(2);
    expect((await tallies.campaigns([id])).get(id)).toEqual(before);
    expect(await tallies.differences(id)).toEqual([]);
  });

  it('a truncate of messages empties the tallies', async () => {
    // Own database: nothing else lives in it.
    await q('truncate messages cascade');
    const [left] = await q<{ n: number }>(
      `select (select count(*) from message_tallies)::int + (select count(*) from campaign_timeline_tallies)::int as n`,
    );
    expect(left!.n).toBe(0);
  });
});
