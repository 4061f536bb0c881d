/**
 * The administrators' users table on 1,000 accounts (a third with money): how long one page
 * takes through the service (search + count + balances), in milliseconds (median and p95 of
 * 30 calls each):
 * - `firstPage`: no search, page 1 of 20 (what /usuarios opens with);
 * - `searchText`: a company/name/e-mail substring matching ~10% of the accounts;
 * - `searchCnpjMasked`: a CNPJ prefix typed with its mask;
 * - `lastPage`: no search, the last page (OFFSET 980);
 * - `detail`: one user with balance and audit history.
 */
import crypto from 'node:crypto';
import { createAdminUsersRepository } from '../src/modules/admin-users/admin-users.repository.ts';
import { createAdminUsersService } from '../src/modules/admin-users/admin-users.service.ts';
import { createAuditRepository } from '../src/modules/audit/audit.repository.ts';
import { createLedgerRepository } from '../src/modules/ledger/ledger.repository.ts';
import { createLedgerService } from '../src/modules/ledger/ledger.service.ts';
import { users } from '../src/modules/users/users.schema.ts';
import { createLogger } from '../src/platform/logger.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const USERS = Number(process.env.BENCH_ADMIN_USERS ?? 1000);
const CALLS = 30;
const PAGE_SIZE = 20;

async function measure(op: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await op(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    await op();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95) };
}

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const db = ctx.db.db;
  const ledger = createLedgerService({ repo: createLedgerRepository(db), clock: { now: () => new Date() } });
  const service = createAdminUsersService({
    db,
    repo: createAdminUsersRepository(db),
    audit: createAuditRepository(db),
    logger: createLogger('silent'),
    endAllSessions: async () => 0,
    revokeAllApiKeys: async () => 0,
    // The same wiring as admin-users.module.ts: the page's balances in one query.
    moneyBalances: ledger.getMoneyBalancesCentavos,
  });

  const run = crypto.randomUUID().slice(0, 8);
  const rows = Array.from({ length: USERS }, (_, i) => ({
    email: `bench-${run}-${i}@empresa${i % 50}.com.br`,
    name: i % 10 === 0 ? `Padaria Estrela ${i}` : `Comércio ${i} Ltda`,
    fullName: `Pessoa ${i} da Silva`,
    cnpj: `${String(10_000_000 + i).padStart(8, '0')}0001${String(i % 100).padStart(2, '0')}`,
    mobilePhone: `119${String(10_000_000 + i).slice(0, 8)}`,
  }));
  const inserted = await db.insert(users).values(rows).returning({ id: users.id });
  const admin = inserted[0]!.id;
  for (const [i, u] of inserted.entries()) {
    if (i % 3 !== 0) continue;
    await ledger.recordManualPayment({
      userId: u.id,
      amountCentavos: 10_000 + i,
      method: 'PIX',
      actorUserId: admin,
      reason: 'bench',
    });
  }
  const someone = inserted[500]!.id;
  await service.update(admin, someone, { priceTable: { smsShort: 875 } });

  const lastPage = Math.ceil(USERS / PAGE_SIZE);
  const firstPage = await measure(() => service.list({ search: '', page: 1, pageSize: PAGE_SIZE }));
  const searchText = await measure(() => service.list({ search: 'estrela', page: 1, pageSize: PAGE_SIZE }));
  const searchCnpjMasked = await measure(() => service.list({ search: '10.000.5', page: 1, pageSize: PAGE_SIZE }));
  const last = await measure(() => service.list({ search: '', page: lastPage, pageSize: PAGE_SIZE }));
  const detail = await measure(() => service.get(someone));
  const found = await service.list({ search: '10.000.5', page: 1, pageSize: PAGE_SIZE });

  return {
    users: USERS,
    pageSize: PAGE_SIZE,
    firstPageMsP50: firstPage.p50,
    firstPageMsP95: firstPage.p95,
    searchTextMsP50: searchText.p50,
    searchTextMsP95: searchText.p95,
    searchCnpjMaskedMsP50: searchCnpjMasked.p50,
    searchCnpjMaskedMsP95: searchCnpjMasked.p95,
    searchCnpjMaskedTotal: found.total,
    lastPageMsP50: last.p50,
    lastPageMsP95: last.p95,
    detailMsP50: detail.p50,
    detailMsP95: detail.p95,
  };
}
