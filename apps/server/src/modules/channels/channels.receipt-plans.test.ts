import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openServerWithUser } from '../../../test/hooks.test-support.ts';
import { dbKind, inRolledBackTransaction } from '../../../test/server.test-support.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { RunningServer } from '../../server.ts';
import { createMessageBatches } from './channels.batch.ts';
import type { StatusEvent } from './provider.ts';

/**
 * A batch of receipts reads and writes by key, whatever the planner knows: PGlite never analyzes
 * (and a PostgreSQL without autovacuum, or right after a campaign stored its ids, has no
 * statistics yet), and without them the planner hashed a batch's keys against a scan of every
 * carrier id ever stored, three times a batch (found profiling the receipts bench). Counted by the
 * database itself, in the transaction (`pg_stat_xact_user_tables`), rolled back at the end.
 */
describe(`a receipt batch reads provider_message_ids by its index, with no statistics (${dbKind})`, () => {
  let server: RunningServer;
  let userId: string;
  openServerWithUser((opened) => ({ server, userId } = opened));

  it('500 receipts against 20,000 stored carrier ids: no sequential scan of provider_message_ids, every one applied', async () => {
    const tag = `PLAN-${userId.slice(0, 8)}`;
    const { outcomes, delivered, scans } = await inRolledBackTransaction(server.db.db, async (tx) => {
      await tx.execute(sql`
        with m as (
          insert into messages (user_id, channel, to_phone, status, parts, provider, content)
          select ${userId}, 'sms_short', '+55119' || lpad(g::text, 8, '0'), 'sent', 1, 'smpp', '{"kind":"sms"}'::jsonb
          from generate_series(1, 20000) g returning id, to_phone)
        insert into provider_message_ids (provider, provider_message_id, message_id, part)
        select 'smpp', ${tag} || '-' || to_phone, id, 0 from m`);
      const events: StatusEvent[] = Array.from({ length: 500 }, (_, i) => ({
        type: 'status',
        provider: 'smpp',
        providerMessageId: `${tag}-+55119${String(1 + i * 40).padStart(8, '0')}`,
        status: 'delivered',
        at: new Date(),
      }));
      const counts = () =>
        rowsOf<{ seq_scan: number; idx_scan: number }>(
          tx.execute(sql`select seq_scan::int, idx_scan::int from pg_stat_xact_user_tables
                         where relname = 'provider_message_ids'`),
        );
      const before = await counts();
      const batches = createMessageBatches((fn) => fn(tx));
      const outcomes = (await batches.applyReceipts(events)).map((r) => r.outcome);
      const after = await counts();
      const rows = await rowsOf<{ n: number }>(
        tx.execute(sql`select count(*)::int as n from messages m join provider_message_ids p on p.message_id = m.id
                       where p.provider_message_id like ${`${tag}-%`} and m.status = 'delivered'`),
      );
      return {
        outcomes,
        delivered: rows[0]!.n,
        scans: [
          { seq_scan: after[0]!.seq_scan - before[0]!.seq_scan, idx_scan: after[0]!.idx_scan - before[0]!.idx_scan },
        ],
      };
    });
    expect(outcomes).toEqual(Array(500).fill('applied'));
    expect(delivered).toBe(500);
    expect(scans[0]!.seq_scan).toBe(0);
    expect(scans[0]!.idx_scan).toBeGreaterThan(0);
  });
});
