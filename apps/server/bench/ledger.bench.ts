/**
 * Ledger transfers per second (money → credits: one locked money row, two balance updates, two
 * entries, one transaction), in three shapes:
 * - `oneAccountSequential`: one account, one transfer after another (latency-bound);
 * - `oneAccountParallel`: one account, 50 in flight (they serialise on the money row);
 * - `manyAccountsParallel`: 50 accounts, 50 in flight (what a busy server sees).
 * Then checks that the entries still sum to the balances for every account.
 */
import { createLedgerRepository } from '../src/modules/ledger/ledger.repository.ts';
import { createLedgerService, type LedgerService } from '../src/modules/ledger/ledger.service.ts';
import { insertTestUser } from '../src/modules/ledger/ledger.test-helpers.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const TRANSFERS = Number(process.env.BENCH_LEDGER_TRANSFERS ?? 2000);
const IN_FLIGHT = 50;

async function timed(count: number, inFlight: number, op: (i: number) => Promise<unknown>) {
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await op(i);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { perSecond: Math.round(count / seconds), seconds: Math.round(seconds * 1000) / 1000 };
}

async function fundedAccount(ctx: BenchContext, ledger: LedgerService, adminId: string) {
  const user = await insertTestUser(ctx.db.db, { priceSmsShort: 850, priceUra: 1234 });
  await ledger.recordManualPayment({
    userId: user.id,
    amountCentavos: 100_000_000_00, // R$ 100 million: never the limit here
    method: 'MANUAL',
    actorUserId: adminId,
    reason: 'bench',
  });
  return user.id;
}

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const ledger = createLedgerService({ repo: createLedgerRepository(ctx.db.db), clock: { now: () => new Date() } });
  const admin = await insertTestUser(ctx.db.db, { accessLevel: 'ADMINISTRATOR' });

  const single = await fundedAccount(ctx, ledger, admin.id);
  // warm-up (JIT, plan caches)
  await timed(100, 1, () => ledger.transfer({ userId: single, type: 'SMSSHORT', quantity: 100 }));

  const sequential = await timed(TRANSFERS, 1, () =>
    ledger.transfer({ userId: single, type: 'SMSSHORT', quantity: 100 }),
  );
  const oneParallel = await timed(TRANSFERS, IN_FLIGHT, () =>
    ledger.transfer({ userId: single, type: 'URA', quantity: 7 }),
  );

  const accounts = await Promise.all(Array.from({ length: IN_FLIGHT }, () => fundedAccount(ctx, ledger, admin.id)));
  const manyParallel = await timed(TRANSFERS, IN_FLIGHT, (i) =>
    ledger.transfer({ userId: accounts[i % accounts.length]!, type: 'SMSSHORT', quantity: 3 }),
  );

  let reconciled = true;
  for (const userId of [single, ...accounts]) reconciled &&= (await ledger.reconcile(userId)).ok;
  const money = await ledger.getMoneyBalanceCentavos(single);
  // 100 warm-up + TRANSFERS of 100 × R$ 0,085 (R$ 8,50) and TRANSFERS of 7 × R$ 0,1234 (R$ 0,8638 → 0,87)
  const expected = 100_000_000_00 - (100 + TRANSFERS) * 850 - TRANSFERS * 87;

  return {
    transfers: TRANSFERS,
    inFlight: IN_FLIGHT,
    oneAccountSequentialPerSecond: sequential.perSecond,
    oneAccountParallelPerSecond: oneParallel.perSecond,
    manyAccountsParallelPerSecond: manyParallel.perSecond,
    manyAccountsParallelSeconds: manyParallel.seconds,
    reconciled,
    moneyExact: money === expected,
  };
}
