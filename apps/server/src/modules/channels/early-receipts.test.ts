import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openServerWithUser } from '../../../test/hooks.test-support.ts';
import { dbKind, inRolledBackTransaction } from '../../../test/server.test-support.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { RunningServer } from '../../server.ts';
import { channelsHousekeepingQueue } from './channels.jobs.ts';
import { createChannelsRepository } from './channels.repository.ts';
import { earlyReceiptCandidates } from './message-batch.repository.ts';
import type { StatusEvent } from './provider.ts';

/**
 * Receipts that came before their submit (`early_receipts`): kept for a retention window and
 * purged by the hourly housekeeping job; the 5 s sweep reads only the last hour's through an
 * index, however many unclaimed receipts the table holds.
 */
describe(`early receipts: retention and the sweep's reach (${dbKind})`, () => {
  let server: RunningServer;
  let repo: ReturnType<typeof createChannelsRepository>;
  let userId: string;
  let n = 0;

  openServerWithUser((opened) => {
    ({ server, userId } = opened);
    repo = createChannelsRepository(server.db.db);
  });

  const uniqueId = () => `ER-${userId.slice(0, 8)}-${++n}`;
  const receipt = (id: string, status: StatusEvent['status'] = 'delivered'): StatusEvent => ({
    type: 'status',
    provider: 'smpp',
    providerMessageId: id,
    status,
    at: new Date(),
  });
  /** Parks a receipt the ordinary way (no message has its id), then dates it `age` ago on the database's clock. */
  const park = async (id: string, age: string | null) => {
    expect((await repo.applyReceipts([receipt(id)]))[0]!.outcome).toBe('early');
    if (age)
      await server.db.executeSql(
        `update early_receipts set received_at = now() - $2::interval where provider_message_id = $1`,
        [id, age],
      );
  };
  const parked = async (ids: string[]) =>
    (
      await server.db.executeSql(
        'select provider_message_id as id from early_receipts where provider_message_id = any($1) order by 1',
        [ids],
      )
    ).rows.map((r) => (r as { id: string }).id);
  /** A sent message whose carrier id was stored without looking at the waiting receipts (a race lost). */
  const sentWithIdStoredAlone = async (providerId: string) => {
    const id = await repo.createMessage(
      {
        userId,
        channel: 'sms_short',
        toPhone: '+5511987650000',
        parts: 1,
        provider: 'smpp',
        content: { kind: 'sms', text: 'oi', flash: false },
      },
      new Date(),
    );
    await server.db.executeSql(`update messages set status = 'sent' where id = $1`, [id]);
    await server.db.executeSql(
      `insert into provider_message_ids (provider, provider_message_id, message_id, part) values ('smpp', $1, $2, 0)`,
      [providerId, id],
    );
    return id;
  };

  it('purges receipts older than 7 days and keeps the newer ones', async () => {
    const [old, older, recent, almost] = [uniqueId(), uniqueId(), uniqueId(), uniqueId()];
    await park(old, '7 days 1 minute');
    await park(older, '400 days');
    await park(recent, null);
    await park(almost, '6 days 23 hours');
    expect(await repo.purgeEarlyReceipts()).toBeGreaterThanOrEqual(2);
    expect(await parked([old, older, recent, almost])).toEqual([almost, recent].sort());
  });

  it('the hourly housekeeping job does the purge', async () => {
    const old = uniqueId();
    await park(old, '8 days');
    await server.jobs.send(channelsHousekeepingQueue, {});
    const deadline = Date.now() + 20_000;
    while ((await parked([old])).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await parked([old])).toEqual([]);
  });

  it("the sweep applies the last hour's receipts whose id is stored by now, and leaves older ones to their submit or the purge", async () => {
    const [fresh, stale] = [uniqueId(), uniqueId()];
    await park(fresh, null);
    await park(stale, '2 hours');
    const freshMessage = await sentWithIdStoredAlone(fresh);
    const staleMessage = await sentWithIdStoredAlone(stale);
    await repo.sweepEarlyReceipts();
    expect((await repo.findById(freshMessage))?.status).toBe('delivered');
    expect((await repo.findById(staleMessage))?.status).toBe('sent');
    expect(await parked([fresh, stale])).toEqual([stale]);
  });

  it("the sweep's read is a range of the received-at index, not a scan of every waiting receipt", async () => {
    // 20,000 unclaimed receipts of the last days (another system's messages on a shared carrier
    // account), in a transaction rolled back at the end, with the planner's statistics taken.
    const plan = await inRolledBackTransaction(server.db.db, async (tx) => {
      await tx.execute(sql`
        insert into early_receipts (provider, provider_message_id, event, received_at)
        select 'smpp', 'plan-' || g, '{}'::jsonb, now() - interval '2 hours' - g * interval '20 seconds'
        from generate_series(1, 20000) g`);
      await tx.execute(sql`analyze early_receipts`);
      return rowsOf<{ 'QUERY PLAN': string }>(tx.execute(sql`explain ${earlyReceiptCandidates(1000)}`));
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('early_receipts_received_idx');
    expect(text).not.toMatch(/Seq Scan on early_receipts/);
  });
});
