/**
 * The API's hot paths under load (issue 14): `GET /api/me`, the lists page (`GET /api/v1/lists`)
 * and the administrators' users page (`GET /api/v1/admin/users`), 20 keep-alive clients, each
 * against a bare Fastify route in the same process running the same SQL statements (raw, on the
 * same database handle, named statements on PostgreSQL) and answering the same JSON, in the same
 * run. What the ratio shows is the cost of everything else: the auth hook, validation,
 * serialisation, drizzle, the services. Goal: at least half the bare route's requests per second.
 * Two references beside: the harness's ceiling (a bare route without SQL) and the issue's
 * "bare Fastify + one query" (the session lookup alone), each route's ratio to it printed too.
 *
 *   npm run bench -- api
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import Fastify from 'fastify';
import { hashSessionToken } from '../src/platform/auth/crypto.ts';
import { readToken } from '../src/platform/auth/guard.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { startServer } from '../src/server.ts';
import { bearer, makeAdmin, signUpAndSignIn } from '../test/factories.test-support.ts';
import { fixtureWebRoot, freePort } from '../test/server.test-support.ts';
import { httpLoad } from './load.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const CONCURRENCY = 20;
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.API_BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const statementNames = new Map<string, string>();
const hashOf = (text: string) => {
  let name = statementNames.get(text);
  if (!name) {
    name = createHash('sha1').update(text).digest('hex').slice(0, 12);
    statementNames.set(text, name);
  }
  return name;
};

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const port = await freePort();
  const config = loadConfig({ DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent', NODE_ENV: 'test', PORT: String(port) });
  const server = await startServer({
    config,
    logger: createLogger('silent'),
    listen: false,
    db,
    webRoot: fixtureWebRoot(),
  });
  await server.app.listen({ port, host: '127.0.0.1' });
  // Named (prepared) statements on PostgreSQL, as our hot queries are: the ratio is then the cost
  // of our stack, not of PostgreSQL parsing and planning the bare route's statements again.
  const pool = db.pool;
  const sql = async (text: string, values: unknown[] = []) =>
    pool
      ? (await pool.query({ name: `bare_${hashOf(text)}`, text, values })).rows
      : (await db.executeSql(text, values)).rows;

  // The bare routes: the same statements our routes run (session, then the page's reads).
  const bare = Fastify();
  const session = async (authorization: string | undefined) => {
    const token = readToken(authorization);
    const [row] = (await sql(
      `select s.id as session_id, s.remain_login, s.last_seen_at, u.id, u.email, u.name, u.access_level, u.language
       from sessions s join users u on u.id = s.user_id
       where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and u.active limit 1`,
      [hashSessionToken(token ?? '')],
    )) as { id: string }[];
    return row!;
  };
  // Two references: the harness's ceiling (no SQL) and the "bare Fastify + one query".
  bare.get('/bare/nothing', async () => ({ ok: true }));
  bare.get('/bare/one-query', async (request) => session(request.headers.authorization));
  // `/api/me` is one statement: the live session, the account and its money balance.
  bare.get('/bare/me', async (request) => {
    const [me] = await sql(
      `select s.id as session_id, s.remain_login, s.last_seen_at, u.*, b.available
       from sessions s join users u on u.id = s.user_id
       left join credit_balances b on b.user_id = u.id and b.type = 'BALANCE'
       where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and u.active limit 1`,
      [hashSessionToken(readToken(request.headers.authorization) ?? '')],
    );
    return me;
  });
  bare.get('/bare/lists', async (request) => {
    const { id } = await session(request.headers.authorization);
    const rows = (await sql(
      'select * from contact_lists where user_id = $1 order by created_at desc, id desc limit 20 offset 0',
      [id],
    )) as { id: string }[];
    const [total] = await sql('select count(*) as n from contact_lists where user_id = $1', [id]);
    const opted = await sql(
      `select c.list_id as "listId", count(*)::int as n from opt_outs o
       join contacts c on c.phone = o.phone and c.list_id = any($2::uuid[]) where o.user_id = $1 group by c.list_id`,
      [id, rows.map((r) => r.id)],
    );
    return { items: rows, total, opted, page: 1, pageSize: 20 };
  });
  bare.get('/bare/users', async (request) => {
    await session(request.headers.authorization);
    const rows = (await sql('select * from users order by created_at desc, id desc limit 20 offset 0')) as {
      id: string;
    }[];
    const [total] = await sql('select count(*) as n from users');
    const money = await sql(
      `select user_id, available from credit_balances where user_id = any($1::uuid[]) and type = 'BALANCE'`,
      [rows.map((r) => r.id)],
    );
    return { items: rows, total, money, page: 1, pageSize: 20 };
  });
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: '127.0.0.1' });

  try {
    // A user with a few lists, an administrator, and 40 more users for the admin page.
    const { token } = await signUpAndSignIn(server);
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    for (let i = 0; i < 40; i++) await signUpAndSignIn(server);
    const { rows: owner } = await db.executeSql(`select s.user_id from sessions s where s.token_hash = $1`, [
      hashSessionToken(token),
    ]);
    const userId = (owner[0] as { user_id: string }).user_id;
    for (let i = 0; i < 8; i++)
      await db.executeSql(
        `insert into contact_lists (user_id, name, status, progress, total, valid, mobiles, file_name, file_kind, file_size)
         values ($1, $2, 'ready', 100, 10, 10, 10, 'bench.csv', 'csv', 0)`,
        [userId, `Lista ${i}`],
      );

    // The machine is shared and noisy: each figure is the median of ROUNDS short runs, and each
    // ratio the median of the rounds' ratios, bare and ours measured back to back (order swapped
    // every round), so a burst of load elsewhere hits both sides of one ratio alike.
    const figures: BenchFigures = { concurrency: CONCURRENCY, seconds: SECONDS, rounds: ROUNDS };
    const load = (url: string, who: string) =>
      httpLoad(url, { concurrency: CONCURRENCY, seconds: SECONDS, headers: bearer(who) });
    const refs = { ceiling: [] as number[], oneQuery: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      refs.ceiling.push((await load(`http://127.0.0.1:${barePort}/bare/nothing`, token)).requestsPerSecond);
      refs.oneQuery.push((await load(`http://127.0.0.1:${barePort}/bare/one-query`, token)).requestsPerSecond);
    }
    figures.ceilingBareRequestsPerSecond = median(refs.ceiling);
    figures.oneQueryBareRequestsPerSecond = median(refs.oneQuery);
    const pages = [
      ['me', '/api/me', '/bare/me', token],
      ['lists', '/api/v1/lists', '/bare/lists', token],
      ['adminUsers', '/api/v1/admin/users', '/bare/users', admin.token],
    ] as const;
    for (const [name, route, bareRoute, who] of pages) {
      const rounds: { ours: number; bare: number; p50: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const measureBare = () => load(`http://127.0.0.1:${barePort}${bareRoute}`, who);
        const measureOurs = () => load(`http://127.0.0.1:${port}${route}`, who);
        const [first, second] = round % 2 === 0 ? [measureBare, measureOurs] : [measureOurs, measureBare];
        const a = await first();
        const b = await second();
        const [bare, ours] = round % 2 === 0 ? [a, b] : [b, a];
        if ((ours.statuses['200'] ?? 0) === 0) throw new Error(`${route}: ${JSON.stringify(ours.statuses)}`);
        rounds.push({ ours: ours.requestsPerSecond, bare: bare.requestsPerSecond, p50: ours.p50Ms });
      }
      figures[`${name}RequestsPerSecond`] = median(rounds.map((r) => r.ours));
      figures[`${name}P50Ms`] = median(rounds.map((r) => r.p50));
      figures[`${name}BareRequestsPerSecond`] = median(rounds.map((r) => r.bare));
      figures[`${name}RatioToBare`] = Number(median(rounds.map((r) => r.ours / r.bare)).toFixed(3));
      figures[`${name}RatioToOneQuery`] = Number(
        (Number(figures[`${name}RequestsPerSecond`]) / Number(figures.oneQueryBareRequestsPerSecond)).toFixed(3),
      );
    }
    console.log(`api (${kind}):`, figures);
    return figures;
  } finally {
    await bare.close();
    await server.close();
  }
}
