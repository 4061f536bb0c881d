import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDED_OVER, moneyProblems } from '../../../test/money-invariants.test-support.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { ProviderError } from '../channels/provider.ts';
import { createCampaignsRepository } from './campaigns.repository.ts';
import { ScriptedCarrier, step } from './campaigns.settle.test-support.ts';
import { api, importList, mobile, smsCampaign, startCarrierServer } from './campaigns.test-support.ts';

/**
 * The settle rules as a property: whatever order submit results (sent, failed, maybe-sent,
 * try-later), receipts (before or after their submit is stored), cut-offs (the supervisor settling
 * a dead worker's rows, or a live batch it believes dead) and a cancel come in, the credits end
 * as the rows' final states say (money-invariants.test-support.ts): reserved = used + released + what is still
 * queued, used = the parts handed to the carrier, released = the parts never handed over, and the
 * ledger's entries sum to the balances.
 *
 * The real server modules run on a real database (the dispatch jobs, the supervisor's pass, the
 * lifecycle's cancel, the channels' receipt handling); the carrier is a scripted one whose every
 * submit waits until the property's next step says how it ends.
 */

const RECIPIENTS = 6;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('the settle rules: any interleaving gives the credits of the rows’ final states', () => {
  let handle: DbHandle;
  let server: RunningServer;
  let close: (() => Promise<void>) | undefined;
  const carrier = new ScriptedCarrier();
  let user: { id: string; token: string };
  let list: string;

  beforeAll(async () => {
    ({ server, handle, close } = await startCarrierServer(carrier));
    user = await userWithCredits(server, 100_000);
    // Names of different lengths: rows of one and of two parts in every campaign.
    const rows = Array.from({ length: RECIPIENTS }, (_, i) => ({
      phone: mobile(),
      name: i % 2 === 0 ? 'Ana' : 'Maria'.repeat(30),
    }));
    list = await importList(server, user.token, rows);
    // Credits the same user holds reserved for a campaign far ahead: a settle that captures more
    // than its own campaign reserved takes them from there, instead of failing for want of any.
    const c = api(server, user.token);
    const later = await c.create({
      ...smsCampaign('reserva', list, 'Olá {nome}, até logo!'),
      schedule: '2099-01-04T10:00:00-03:00',
    });
    expect((await c.move(later, 'start')).status).toBe('SCHEDULED');
  }, 120_000);

  afterAll(async () => {
    await carrier.close();
    await close?.();
  });

  it('holds for submit results, receipts, cut-offs and cancels in any order', async () => {
    const repo = createCampaignsRepository(handle.db);
    const c = api(server, user.token);
    const sql = (text: string, values: unknown[] = []) => handle.executeSql(text, values);
    let run = 0;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 14 }), async (steps) => {
        run++;
        const id = await c.create(smsCampaign(`prop ${run}`, list, 'Olá {nome}, oferta!'));
        // A submit still waiting from an earlier run (a loop the last supervisor pass started) is
        // taken: left unanswered, its loop would wait for ever.
        for (const p of carrier.pending.splice(0)) p.resolve({ providerMessageIds: carrier.idsFor(p.message) });
        const answered: string[][] = [];
        const receipts: Promise<void>[] = [];
        await c.move(id, 'start');
        const waitForSubmits = async () => {
          for (let i = 0; i < 40 && carrier.pending.length === 0; i++) await sleep(10);
        };
        await waitForSubmits();
        for (const s of steps) {
          switch (s.kind) {
            case 'submit':
            case 'receipt-first': {
              await waitForSubmits();
              if (carrier.pending.length === 0) break;
              const [p] = carrier.pending.splice(s.pick % carrier.pending.length, 1);
              const outcome = s.kind === 'submit' ? s.outcome : 'sent';
              if (outcome === 'sent' || outcome === 'unknown') carrier.handedOver.add(p!.message.id);
              if (outcome === 'sent') {
                const ids = carrier.idsFor(p!.message);
                answered.push(ids);
                if (s.kind === 'receipt-first') receipts.push(...carrier.receipt(ids, s.status));
                p!.resolve({ providerMessageIds: ids });
              } else if (outcome === 'failed') {
                p!.reject(new ProviderError('SCRIPTED_INVALID', 'invalid destination'));
              } else if (outcome === 'unknown') {
                p!.reject(new ProviderError('SCRIPTED_DROPPED', 'bind dropped in flight', { sentUnknown: true }));
              } else {
                // Refused now and at every attempt until the end: the dispatcher gives the row back.
                carrier.refusing.add(p!.message.id);
                p!.reject(new ProviderError('SCRIPTED_THROTTLED', 'throttled', { retryable: true }));
              }
              break;
            }
            case 'receipt':
              if (answered.length > 0) receipts.push(...carrier.receipt(answered[s.pick % answered.length]!, s.status));
              break;
            case 'dead-worker':
              await repo.claim(id, crypto.randomUUID(), s.count);
              await server.modules.supervisor.pass();
              break;
            case 'stale-batch':
              // Row by row: one statement over several rows deadlocks with a settle taking them in another order.
              for (const r of (
                await sql(`select id from messages where campaign_id = $1 and status = 'submitting'`, [id])
              ).rows as { id: string }[])
                await sql(
                  `update messages set updated_at = now() - interval '11 minutes' where id = $1 and status = 'submitting'`,
                  [r.id],
                );
              await server.modules.supervisor.pass();
              break;
            case 'supervisor':
              await server.modules.supervisor.pass();
              break;
            case 'cancel':
              await c.call('POST', `/api/v1/campaigns/${id}/cancel`);
              break;
            case 'wait':
              await sleep(30);
              break;
          }
        }
        // The rest is sent, until nothing is left in flight (a stranded row stays: the check says so).
        carrier.refusing.clear();
        const deadline = Date.now() + 8_000;
        for (;;) {
          for (const p of carrier.pending.splice(0)) {
            carrier.handedOver.add(p.message.id);
            p.resolve({ providerMessageIds: carrier.idsFor(p.message) });
          }
          const { rows } = await sql(
            `select count(*)::int as n from messages where campaign_id = $1 and status in ('queued', 'submitting')`,
            [id],
          );
          const campaign = await c.get(id);
          const open = (rows[0] as { n: number }).n;
          // Quiet: nothing in flight, and the campaign ended, or paused by the carrier's refusals with rows queued.
          const quiet =
            campaign.status === 'PAUSED'
              ? campaign.counts.submitting === 0
              : open === 0 && campaign.finishedAt !== null;
          if (carrier.pending.length === 0 && quiet) break;
          if (Date.now() > deadline) break;
          await sleep(30);
        }
        // A receipt's answer may wait for its batch, never for long (a carrier gives up at ~15 s).
        await Promise.race([Promise.allSettled(receipts), sleep(3_000)]);
        await server.modules.supervisor.pass();
        const problems = await moneyProblems(handle, [user.id], [id]);
        // What the carrier took or may have taken is paid for, never given back.
        const { rows: released } = await sql(
          `select m.id, m.status from messages m where m.id = any($1::uuid[]) and not ${HANDED_OVER}`,
          [[...carrier.handedOver]],
        );
        for (const r of released as { id: string; status: string }[])
          problems.push(`message ${r.id} reached the carrier yet ended ${r.status}, its credits released`);
        for (const twice of carrier.sentTwice.splice(0)) problems.push(`message ${twice} handed to the carrier twice`);
        for (const refused of carrier.refusedReceipts.splice(0)) problems.push(`receipt ${refused} refused`);
        carrier.handedOver.clear();
        expect(problems, JSON.stringify(steps)).toEqual([]);
      }),
      // No shrinking: each run is a campaign on a live server, and the failing steps are printed whole.
      { numRuns: 15, endOnFailure: true },
    );
  }, 180_000);
});
