import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cnpjCheckDigits } from '@ecoa/shared';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCnpjSample } from '../src/modules/cnpj-base/cnpj-base.sample.ts';
import { establishment } from '../src/modules/cnpj-base/cnpj-base.sample-data.ts';
import { openDb } from '../src/platform/db/client.ts';
import { CsvParser } from '../src/platform/text/csv.ts';
import { bearer, signIn, signUpAndSignIn, uniqueEmail } from './factories.test-support.ts';
import { injectAs } from './http.test-support.ts';
import { killed, startEcoaServer, waitUntil } from './processes.test-support.ts';
import { remoteServer } from './remote-server.test-support.ts';
import { dbKind, isolatedDatabaseUrl, tempDir } from './server.test-support.ts';

/**
 * Enrichment's promise about credits, across a SIGKILL of the process running its lookup: one
 * credit reserved per valid CNPJ, then, whatever dies on the way, exactly one capture (the hits
 * with a phone) and one release (the rest), every result once. Ecoa runs as `npm start` would;
 * the lookup (batches of 5,000) is cut off after its first batches committed, and a new server
 * on the same database finishes it.
 */
const SEED = 11;
/** Companies in the CNPJ base (each with its matriz, ordem 0001, and some a filial). */
const COMPANIES = 12_000;
/** Valid CNPJs asked for that the base does not hold. */
const MISSING = 30_000;

/** The enrichment's CNPJs, and how many of them the base holds with a phone. */
function cnpjsToEnrich() {
  const inBase = Array.from({ length: COMPANIES }, (_, i) => establishment(SEED, i, 1).expected);
  // Alphanumeric (the July 2026 form) with a básico the sample's numeric ones never are.
  const missing = Array.from({ length: MISSING }, (_, i) => {
    const first12 = `ZZ${String(i).padStart(6, '0')}0001`;
    return `${first12}${cnpjCheckDigits(first12)}`;
  });
  return { cnpjs: [...inBase.map((e) => e.cnpj), ...missing], withPhone: inBase.filter((e) => e.phones.length > 0) };
}

describe(`an enrichment across a SIGKILL (${dbKind})`, () => {
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    own = await isolatedDatabaseUrl();
  });
  afterAll(async () => {
    for (const child of children) await killed(child, 'SIGKILL');
    await own?.drop();
  });

  it('reserves once, captures the hits with a phone and releases the rest exactly once', async () => {
    const dataDir = tempDir();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: uniqueEmail('admin'),
      ...(own ? { DATABASE_URL: own.url } : {}),
    };
    const first = await startEcoaServer(env);
    children.push(first.child);
    const server = remoteServer(first.base, dataDir);
    const admin = await signIn(server, env.ADMIN_EMAIL!);
    const { token, user } = await signUpAndSignIn(server);
    const call = async (method: string, url: string, payload?: unknown, as = token) => {
      const res = await injectAs(server, as, { method: method as 'GET', url, payload: payload as object });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      return res.json();
    };

    // The base: the Receita's layout, imported by the server's own job.
    const sample = await writeCnpjSample(path.join(tempDir('cnpj-crash-'), '2030-05'), {
      rows: Math.round(COMPANIES * 1.2),
      seed: SEED,
      files: 2,
    });
    expect(sample.companies).toBeGreaterThanOrEqual(COMPANIES);
    await call('POST', '/api/v1/admin/cnpj-base/import', { folder: sample.folder }, admin.token);
    await waitUntil('the CNPJ base import', async () => {
      const base = await call('GET', '/api/v1/admin/cnpj-base', undefined, admin.token);
      if (base.lastImport?.status === 'failed') throw new Error(base.lastImport.error);
      return base.lastImport?.status === 'done';
    });

    const { cnpjs, withPhone } = cnpjsToEnrich();
    const valid = cnpjs.length;
    await call('PATCH', `/api/v1/admin/users/${user.id}`, { permissions: { enriched: ['all'] } }, admin.token);
    await call(
      'POST',
      `/api/v1/admin/users/${user.id}/adjustments`,
      { type: 'ENRICHED', amount: valid + 500, reason: 'teste de queda' },
      admin.token,
    );
    // Duplicates and invalid inputs reserve nothing.
    const { id } = await call('POST', '/api/v1/enrichments', {
      name: 'Queda',
      cnpjs: [...cnpjs, cnpjs[0], '11.111.111/1111-11'],
    });
    // Killed once its first batch is in, well before the end.
    if (own) await killMidLookupOnPostgres(own.url, id, first.child);
    else await killMidLookupOnPglite(() => call('GET', `/api/v1/enrichments/${id}`), first.child);
    expect(await readEnrichment(own?.url, dataDir, id)).toMatchObject({
      status: 'processing',
      valid,
      duplicates: 1,
      invalid: 1,
      credits_reserved: valid,
    });

    const again = await startEcoaServer(env, first.port);
    children.push(again.child);
    // PostgreSQL: another process may own an active job, so its lease decides (15 minutes for
    // this queue). The test moves the clock: the lease ends now, and pg-boss's own maintenance
    // fails the job back to its queue, as any live process's would once the lease had passed.
    if (own) await leaseRunsOut(own.url);
    await waitUntil(
      'the enrichment to finish',
      async () => (await call('GET', `/api/v1/enrichments/${id}`)).status !== 'processing',
      120_000,
    );
    const done = await call('GET', `/api/v1/enrichments/${id}`);
    const hits = withPhone.length;
    expect(done).toMatchObject({
      status: 'ready',
      progress: 100,
      valid,
      found: COMPANIES,
      withPhone: hits,
      notFound: MISSING,
      credits: { reserved: valid, used: hits, released: valid - hits },
    });
    // Every result once, in the export too (parsed as a CSV: names hold quoted `;`).
    const csv = (
      await server.app.inject({ method: 'GET', url: `/api/v1/enrichments/${id}/export`, headers: bearer(token) })
    ).body;
    const parser = new CsvParser(';');
    const rows = parser.end(parser.push(csv.replace(/^\ufeff/, ''))).slice(1);
    expect(rows).toHaveLength(valid);
    const exported = new Map(rows.map((r) => [r[0]!, r]));
    expect(exported.size).toBe(valid);
    for (const e of withPhone.slice(0, 200)) {
      const [, found, , , , , , , mobiles, landlines] = exported.get(e.cnpj)!;
      expect(found).toBe('sim');
      expect(`${mobiles} ${landlines}`.trim().split(/\s+/).sort()).toEqual(e.phones.map((p) => p.slice(1)).sort());
    }
    await killed(again.child, 'SIGTERM');

    // The database itself: the ledger's moves for this enrichment, balances = Σ entries, the job ran twice.
    const query = await openDatabase(own?.url, dataDir);
    try {
      const moves = await query(
        `select kind, amount::int, reserved_delta::int as reserved from ledger_entries
         where reference_type = 'enrichment' and reference_id = $1 order by id`,
        [id],
      );
      expect(moves).toEqual([
        { kind: 'RESERVE', amount: -valid, reserved: valid },
        { kind: 'CAPTURE', amount: 0, reserved: -hits },
        { kind: 'RELEASE', amount: valid - hits, reserved: -(valid - hits) },
      ]);
      const [sums] = await query(
        `select b.available::int, b.reserved::int, sum(e.amount)::int as amounts, sum(e.reserved_delta)::int as reservations
         from credit_balances b join ledger_entries e on e.user_id = b.user_id and e.type = b.type
         where b.user_id = $1 and b.type = 'ENRICHED' group by b.available, b.reserved`,
        [user.id],
      );
      expect(sums).toEqual({
        available: 500 + valid - hits,
        reserved: 0,
        amounts: 500 + valid - hits,
        reservations: 0,
      });
      const [items] = await query(
        `select count(*)::int as n, count(distinct position)::int as positions, count(distinct cnpj)::int as cnpjs,
                count(*) filter (where found)::int as found from enrichment_items where enrichment_id = $1`,
        [id],
      );
      expect(items).toEqual({ n: valid, positions: valid, cnpjs: valid, found: COMPANIES });
      const jobs = await query(
        "select state, retry_count::int as retries from pgboss.job where name = 'enrichment.lookup' and data->>'enrichmentId' = $1",
        [id],
      );
      expect(jobs).toEqual([{ state: 'completed', retries: expect.any(Number) }]);
      expect((jobs[0] as { retries: number }).retries, 'the lookup ran again after the kill').toBeGreaterThanOrEqual(1);
    } finally {
      await query.close();
    }
  }, 300_000);
});

/**
 * PGlite lives in the server's process: the test asks the API as fast as it answers and kills
 * the process once a batch's progress shows (each batch keeps PGlite busy for a good while, so
 * the kill lands long before the last one).
 */
async function killMidLookupOnPglite(get: () => Promise<{ status: string; progress: number }>, child: ChildProcess) {
  let seen: { status: string; progress: number };
  const deadline = Date.now() + 60_000;
  do {
    seen = await get();
    if (Date.now() > deadline) throw new Error('the lookup never started');
  } while (seen.status === 'processing' && seen.progress === 0);
  await killed(child, 'SIGKILL');
  expect(seen.status, `killed mid-lookup (${JSON.stringify(seen)})`).toBe('processing');
  expect(seen.progress).toBeLessThan(80);
}

/**
 * PostgreSQL: the test holds the enrichment's row, so the lookup stops at its first progress
 * update, its first batch committed; the server is killed there, then the row let go.
 */
async function killMidLookupOnPostgres(url: string, id: string, child: ChildProcess) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select 1 from enrichments where id = $1 for update', [id]);
    await waitUntil('the first batch filled', async () => {
      const { rows } = await client.query(
        'select count(*) filter (where found)::int as n from enrichment_items where enrichment_id = $1',
        [id],
      );
      return rows[0].n > 0;
    });
    await killed(child, 'SIGKILL');
  } finally {
    await client.query('rollback').catch(() => {});
    await client.end();
  }
}

/** The enrichment's row as the database has it (PGlite: once its server is gone). */
async function readEnrichment(url: string | undefined, dataDir: string, id: string) {
  const query = await openDatabase(url, dataDir);
  try {
    return (await query('select * from enrichments where id = $1', [id]))[0];
  } finally {
    await query.close();
  }
}

/** The job's 15-minute lease made to end now, and pg-boss's maintenance run until it fails the job back. */
async function leaseRunsOut(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const boss = new PgBoss({ connectionString: url, maintenanceIntervalSeconds: 1, schedule: false, max: 1 });
  try {
    await client.query(
      "update pgboss.job set expire_in = interval '1 second' where name = 'enrichment.lookup' and state = 'active'",
    );
    await client.query('update pgboss.version set maintained_on = null');
    await boss.start();
    await waitUntil('the expired lease to fail the job', async () => {
      const { rows } = await client.query(
        "select count(*)::int as n from pgboss.job where name = 'enrichment.lookup' and state = 'active'",
      );
      return rows[0].n === 0;
    });
    // The next run has the queue's own lease again (pg-boss also times a handler out by it).
    await client.query(
      "update pgboss.job set expire_in = interval '15 minutes' where name = 'enrichment.lookup' and state = 'retry'",
    );
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await client.end();
  }
}

type Query = ((text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>) & { close(): Promise<void> };

/** The deployment's database, read directly once the server is stopped (PGlite: its DATA_DIR). */
async function openDatabase(url: string | undefined, dataDir: string): Promise<Query> {
  const handle = url
    ? await openDb({ databaseUrl: url, poolSize: 1 })
    : await openDb({ pgliteDir: path.join(dataDir, 'pglite') });
  const query = (async (text: string, values?: unknown[]) =>
    (await handle.executeSql(text, values)).rows as Record<string, unknown>[]) as Query;
  query.close = () => handle.close();
  return query;
}
