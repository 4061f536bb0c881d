/**
 * The rotating link's public hop under load: `GET /l/<slug>` (one statement reads the link and
 * takes its turn, the target is picked, the click is queued for a batched insert, 302) with 100
 * concurrent keep-alive clients, against a bare Fastify route in the same process doing one database
 * read of the link by slug and a 302 (no rotation, no click), in the same run. The load comes
 * from a separate process (http-load.ts), so its CPU is not counted against the server.
 *
 *   npm run bench -- links
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { loadConfig } from '../src/platform/config/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { startServer } from '../src/server.ts';
import { signUpAndSignIn } from '../test/factories.test-support.ts';
import { fixtureWebRoot, freePort } from '../test/server.test-support.ts';
import { httpLoad } from './load.ts';
import type { BenchContext, BenchFigures } from './run.ts';

const CONCURRENCY = 100;
const SECONDS = Number(process.env.LINKS_BENCH_SECONDS ?? 5);

export async function run({ db, kind }: BenchContext): Promise<BenchFigures> {
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: os.tmpdir(),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    LINK_CLICKS_PER_IP_PER_MINUTE: '1000000',
  });
  const server = await startServer({
    config,
    logger: createLogger('silent'),
    listen: false,
    db,
    webRoot: fixtureWebRoot(),
  });
  await server.app.listen({ port, host: '127.0.0.1' });
  // The baseline: a bare Fastify app in this process on the same database, one read of the link by slug, a 302.
  const bareApp = Fastify();
  bareApp.get<{ Params: { slug: string } }>('/bare/:slug', async (request, reply) => {
    const { rows } = (await db.db.execute(
      sql`select id from rotating_links where slug = ${request.params.slug} and deleted_at is null`,
    )) as unknown as { rows: { id: string }[] };
    return reply.redirect(rows[0] ? 'https://wa.me/5511987650101' : 'https://example.com/', 302);
  });
  const barePort = await freePort();
  await bareApp.listen({ port: barePort, host: '127.0.0.1' });
  try {
    const { user } = await signUpAndSignIn(server);
    const slug = `bench-${user.id.slice(0, 8)}`;
    await server.modules.links.create(user.id, {
      name: 'Bench',
      slug,
      mode: 'round_robin',
      targets: ['11987650101', '11987650102', '11987650103'].map((phone, i) => ({
        kind: 'whatsapp' as const,
        phone,
        label: `Vendedor ${i + 1}`,
        message: 'Olá, vim pelo {nome_do_link}',
      })),
    });
    const base = `http://127.0.0.1:${port}`;
    const bare = await httpLoad(`http://127.0.0.1:${barePort}/bare/${slug}`, {
      concurrency: CONCURRENCY,
      seconds: SECONDS,
    });
    const hop = await httpLoad(`${base}/l/${slug}`, { concurrency: CONCURRENCY, seconds: SECONDS });
    await server.modules.linkClicks.close();
    const { rows } = (await db.db.execute(
      sql`select count(*)::int as clicks, count(distinct target_id)::int as targets from link_clicks`,
    )) as unknown as { rows: { clicks: number; targets: number }[] };
    const figures: BenchFigures = {
      concurrency: CONCURRENCY,
      seconds: SECONDS,
      bareRequestsPerSecond: bare.requestsPerSecond,
      bareP99Ms: bare.p99Ms,
      hopRequestsPerSecond: hop.requestsPerSecond,
      hopP50Ms: hop.p50Ms,
      hopP99Ms: hop.p99Ms,
      ratioToBare: Number((hop.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      hopRedirects: hop.statuses['302'] ?? 0,
      hopOtherAnswers: Object.entries(hop.statuses)
        .filter(([s]) => s !== '302')
        .reduce((n, [, c]) => n + c, 0),
      clicksStored: rows[0]!.clicks,
      clicksLost: hop.total - rows[0]!.clicks,
      targetsClicked: rows[0]!.targets,
    };
    console.log(`links (${kind}):`, figures);
    return figures;
  } finally {
    await bareApp.close();
    await server.close();
  }
}
