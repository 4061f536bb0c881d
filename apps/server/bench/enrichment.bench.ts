/**
 * 100,000 CNPJs enriched against a 5,000,000-establishment CNPJ base (PGlite: 500,000; it is one
 * process's memory), from the request to `ready`: POST (check, reserve credits, write the items,
 * queue), the lookup job (batches of 5,000), the credits settled. 80% of the CNPJs are in the
 * base, 60% of those with a phone. Goal (issue 13): ≤ 5 s on PostgreSQL.
 *
 * The baseline, in the same run: the bare lookup, the same `= any(...)` select on the same
 * base in batches of 5,000 with nothing else (no items written, no job, no ledger).
 *
 *   npm run bench -- enrichment            # BENCH_CNPJ_BASE=1000000 for a quicker run
 */
import os from 'node:os';
import { cnpjCheckDigits } from '@ecoa/shared';
import { loadConfig } from '../src/platform/config/config.ts';
import { pgArray } from '../src/platform/db/array-literal.ts';
import { createLogger } from '../src/platform/logger.ts';
import { startServer } from '../src/server.ts';
import { bearer, makeAdmin, signUpAndSignIn } from '../test/factories.test-support.ts';
import { fixtureWebRoot } from '../test/server.test-support.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const CNPJS = 100_000;
const SEED_BATCH = 20_000;
const LOOKUP_BATCH = 5_000;

/** The nth establishment's CNPJ: 8-digit básico, 4-digit ordem, check digits. */
function cnpjOf(n: number): string {
  const first12 = `${String(10_000_000 + Math.floor(n / 4)).padStart(8, '0')}${String((n % 4) + 1).padStart(4, '0')}`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function seedBase(db: BenchContext['db'], establishments: number): Promise<number> {
  const started = performance.now();
  for (let start = 0; start < establishments; start += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, establishments - start) }, (_, i) => cnpjOf(start + i));
    await db.executeSql(
      `insert into cnpj_establishments (cnpj, basico, trade_name, situation, cnae, uf, city, phones, email)
       select c, left(c, 8), 'LOJA ' || ord, case when ord % 10 < 7 then 2 else 8 end, '4711302', 'SP', 'SÃO PAULO',
         case when (ord + $2::int) % 10 < 6 then array['+5511' || (900000000 + (ord + $2::int) % 99999999)::text]
           else '{}'::text[] end, null
       from unnest($1::text[]) with ordinality as t(c, ord)`,
      [pgArray(batch), start],
    );
  }
  await db.executeSql(
    `insert into cnpj_companies (basico, company_name)
     select distinct basico, 'EMPRESA FICTICIA ' || basico || ' LTDA' from cnpj_establishments`,
  );
  await db.executeSql(
    `insert into cnpj_base (id, reference_month, establishments, companies, imported_at)
     values (1, '2026-10', $1, $1 / 4, now()) on conflict (id) do nothing`,
    [establishments],
  );
  await db.executeSql('analyze cnpj_establishments');
  await db.executeSql('analyze cnpj_companies');
  return performance.now() - started;
}

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const baseSize = Number(process.env.BENCH_CNPJ_BASE || (kind === 'postgres' ? 5_000_000 : 500_000));
  const seedMs = await seedBase(db, baseSize);
  // 80% in the base (spread over it), 20% valid CNPJs the base does not have.
  const cnpjs = Array.from({ length: CNPJS }, (_, i) =>
    i % 5 === 4 ? cnpjOf(baseSize + i) : cnpjOf(Math.floor((i * 7919) % baseSize)),
  );

  const config = loadConfig({ DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  const server = await startServer({
    config,
    logger: createLogger('silent'),
    listen: false,
    db,
    webRoot: fixtureWebRoot(),
  });
  try {
    const { user, token } = await signUpAndSignIn(server);
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    await db.executeSql(`update users set permissions_enriched = '{all}' where id = $1`, [user.id]);
    await server.modules.ledger.adjust({
      userId: user.id,
      type: 'ENRICHED',
      amount: CNPJS,
      actorUserId: admin.user.id,
      reason: 'bench credits',
    });

    // The baseline: the same lookup, bare.
    const bareStarted = performance.now();
    let bareFound = 0;
    for (let start = 0; start < cnpjs.length; start += LOOKUP_BATCH) {
      const { rows } = await db.executeSql(
        `select e.cnpj, c.company_name, e.trade_name, e.situation, e.cnae, e.uf, e.city, e.phones, e.email
         from cnpj_establishments e left join cnpj_companies c on c.basico = e.basico where e.cnpj = any($1::text[])`,
        [pgArray(cnpjs.slice(start, start + LOOKUP_BATCH))],
      );
      bareFound += rows.length;
    }
    const bareMs = performance.now() - bareStarted;

    const rssStart = process.memoryUsage().rss;
    let rssPeak = rssStart;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 50);
    const started = performance.now();
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/enrichments',
      headers: bearer(token),
      payload: { name: 'bench', cnpjs },
    });
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
    const createdMs = performance.now() - started;
    const id = created.json().id as string;
    let result: Record<string, unknown>;
    for (;;) {
      result = (
        await server.app.inject({ method: 'GET', url: `/api/v1/enrichments/${id}`, headers: bearer(token) })
      ).json();
      if (result.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const totalMs = performance.now() - started;
    clearInterval(sampler);
    if (result.status !== 'ready') throw new Error(`enrichment ended ${String(result.status)}`);
    const credits = result.credits as { used: number; released: number };

    const figures: BenchFigures = {
      baseEstablishments: baseSize,
      seedSeconds: Math.round(seedMs / 100) / 10,
      cnpjs: CNPJS,
      found: Number(result.found),
      withPhone: Number(result.withPhone),
      creditsUsed: credits.used,
      creditsReleased: credits.released,
      requestToReadyMs: Math.round(totalMs),
      createMs: Math.round(createdMs),
      lookupJobMs: Math.round(totalMs - createdMs),
      bareLookupMs: Math.round(bareMs),
      bareFound,
      ratioToBare: Math.round((totalMs / bareMs) * 100) / 100,
      goalMs: 5000,
      peakRssMb: Math.round(rssPeak / 1e6),
    };
    console.log(figures);
    return figures;
  } finally {
    await server.close();
  }
}
