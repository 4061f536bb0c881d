/**
 * Ledger transfers per second (money → credits: one locked money row, two balance updates, two
 * entries, one transaction), in three shapes:
 * - `oneAccountSequential`: one account, one transfer after another (latency-bound);
 * - `oneAccountParallel`: one account, 50 in flight (they serialise on the money row);
 * - `manyAccountsParallel`: 50 accounts, 50 in flight (what a busy server sees).
 * Then checks that the entries still sum to the balances for every account.
 *
 * Baselines of the same run, same 50 accounts, 50 in flight, on the raw driver (no service, no
 * drizzle): `bareRoundTrip` (`select 1`: the ceiling of one round trip), `bareOneStatement` (the
 * transfer's own statement, `ledger.transfers.repository.ts`) and `bareTransaction` (the shape
 * the transfer had before: BEGIN, read the price, the statement, COMMIT: 4 round trips).
 * The many-accounts figures are the best of 2 rounds (the machine is shared).
 *
 * The pool has one connection per transfer in flight (`poolSize`, read by run.ts): with the
 * harness's default 10, 40 of the 50 wait for a connection and PostgreSQL's group commit
 * flushes at most 10 commits at a time (BENCH_LEDGER_POOL=10 to compare).
 */
import crypto from 'node:crypto';
import { createLedgerRepository } from '../src/modules/ledger/ledger.repository.ts';
import { createLedgerService, type LedgerService } from '../src/modules/ledger/ledger.service.ts';
import { insertTestUser } from '../src/modules/ledger/ledger.test-support.ts';
import { transferStatement } from '../src/modules/ledger/ledger.transfers.repository.ts';
import type { DbHandle } from '../src/platform/db/client.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const TRANSFERS = Number(process.env.BENCH_LEDGER_TRANSFERS ?? 2000);
const IN_FLIGHT = 50;
export const poolSize = Number(process.env.BENCH_LEDGER_POOL ?? IN_FLIGHT);

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

type Query = (text: string, values?: unknown[], name?: string) => Promise<unknown>;

/** The raw driver: node-postgres (named statements when `name` is given) or PGlite. */
function bareDriver(handle: DbHandle): {
  query: Query;
  transaction(fn: (query: Query) => Promise<void>): Promise<void>;
} {
  const { pool, pglite } = handle;
  if (pool) {
    const query: Query = (text, values, name) => pool.query({ text, values, ...(name ? { name } : {}) });
    return {
      query,
      async transaction(fn) {
        const client = await pool.connect();
        try {
          await client.query('begin');
          await fn((text, values, name) => client.query({ text, values, ...(name ? { name } : {}) }));
          await client.query('commit');
        } catch (err) {
          await client.query('rollback');
          throw err;
        } finally {
          client.release();
        }
      },
    };
  }
  return {
    query: (text, values) => pglite!.query(text, values),
    transaction: (fn) => pglite!.transaction((tx) => fn((text, values) => tx.query(text, values))),
  };
}

const bareTransfer = (userId: string) =>
  transferStatement.params({
    userId,
    type: 'SMSSHORT',
    quantity: 3,
    floorCentavos: 0,
    keys: [null, null],
    transferId: crypto.randomUUID(),
    actorUserId: null,
    reason: null,
    now: new Date(),
  });

async function bestOf2(op: () => Promise<{ perSecond: number; seconds: number }>) {
  const a = await op();
  const b = await op();
  return a.perSecond >= b.perSecond ? a : b;
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
  const account = (i: number) => accounts[i % accounts.length]!;
  const bare = bareDriver(ctx.db);
  const { name, text } = transferStatement;
  const bareRoundTrip = await bestOf2(() => timed(TRANSFERS, IN_FLIGHT, () => bare.query('select 1')));
  const bareOneStatement = await bestOf2(() =>
    timed(TRANSFERS, IN_FLIGHT, (i) => bare.query(text, bareTransfer(account(i)), name)),
  );
  const manyParallel = await bestOf2(() =>
    timed(TRANSFERS, IN_FLIGHT, (i) => ledger.transfer({ userId: account(i), type: 'SMSSHORT', quantity: 3 })),
  );
  const bareTransaction = await bestOf2(() =>
    timed(TRANSFERS, IN_FLIGHT, (i) =>
      bare.transaction(async (query) => {
        await query('select price_sms_short from users where id = $1', [account(i)]);
        await query(text, bareTransfer(account(i)), name);
      }),
    ),
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
    poolSize: ctx.kind === 'postgres' ? poolSize : 1,
    bareRoundTripPerSecond: bareRoundTrip.perSecond,
    bareOneStatementPerSecond: bareOneStatement.perSecond,
    bareTransactionPerSecond: bareTransaction.perSecond,
    /** The service against its own statement run bare (1 = no overhead). */
    manyAccountsVsBareOneStatement: Math.round((manyParallel.perSecond / bareOneStatement.perSecond) * 100) / 100,
    reconciled,
    moneyExact: money === expected,
  };
}
