import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, isolatedDatabaseUrl, openTestDb, silentLogger } from '../../../test/helpers.ts';
import { type DbHandle, openDb } from '../../platform/db/client.ts';
import { createHttpMetrics } from '../../platform/metrics/http-metrics.ts';
import { createProcessMetrics } from '../../platform/metrics/process-metrics.ts';
import { createMetricsRepository, type MetricsRepository } from './metrics.repository.ts';
import { createMetricsService } from './metrics.service.ts';

/**
 * The metrics service over the real repository and a database of its own (on PostgreSQL a copy
 * of the template, so other test files' messages do not move the counts).
 */
describe(`the metrics service (${dbKind})`, () => {
  let db: DbHandle;
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  let userId: string;
  const processMetrics = createProcessMetrics();

  beforeAll(async () => {
    own = await isolatedDatabaseUrl();
    db = own ? await openDb({ databaseUrl: own.url, poolSize: 2 }) : await openTestDb();
    const { rows } = await db.executeSql(
      `insert into users (email, name, full_name, cnpj, mobile_phone)
       values ('metricas@ecoa.test', 'Métricas', 'Métricas Teste', '11222333000181', '11912345678') returning id`,
    );
    userId = (rows[0] as { id: string }).id;
  });
  afterAll(async () => {
    processMetrics.stop();
    await db?.close();
    await own?.drop();
  });

  /** A WhatsApp message at `status`, as a test send leaves it. */
  const addMessage = (status: string) =>
    db.executeSql(
      `insert into messages (user_id, channel, to_phone, status, parts, provider, content)
       values ($1, 'whatsapp', '+5511987654321', $2, 1, 'whatsapp-cloud', '{"kind":"text","text":"oi"}')`,
      [userId, status],
    );

  function serviceWith(repo: MetricsRepository, clock: { now: number }) {
    return createMetricsService({
      http: createHttpMetrics(),
      process: processMetrics,
      repo,
      providers: () => [],
      logger: silentLogger,
      now: () => clock.now,
      messageCountsTtlMs: 30_000,
    });
  }

  it('counts messages at most once per period, concurrent scrapes sharing one count', async () => {
    const real = createMetricsRepository(db);
    // The real repository, its count queries counted as they pass through.
    let counts = 0;
    const repo = {
      ...real,
      messageCounts: () => {
        counts++;
        return real.messageCounts();
      },
    };
    const clock = { now: 0 };
    const service = serviceWith(repo, clock);
    await addMessage('sent');
    await Promise.all([service.scrape(), service.scrape()]);
    expect(counts).toBe(1);
    await addMessage('sent');
    clock.now = 29_999;
    expect(await service.scrape()).toContain('ecoa_messages{channel="whatsapp",status="sent"} 1\n');
    expect(counts).toBe(1);
    clock.now = 30_000;
    expect(await service.scrape()).toContain('ecoa_messages{channel="whatsapp",status="sent"} 2\n');
    expect(counts).toBe(2);
  });

  it('keeps scraping when a source fails, saying which one, and retries it next time', async () => {
    const service = serviceWith(createMetricsRepository(db), { now: 0 });
    // A real failure of the messages count: its table is gone for a moment.
    await db.executeSql('alter table messages rename to messages_away');
    let first: string;
    try {
      first = await service.scrape();
    } finally {
      await db.executeSql('alter table messages_away rename to messages');
    }
    expect(first).not.toContain('ecoa_messages{');
    expect(first).toContain('ecoa_metrics_source_up{source="messages"} 0\n');
    expect(first).toContain('ecoa_metrics_source_up{source="jobs"} 1\n');
    // A declared queue with no job still has every state, at 0.
    const { rows } = await db.executeSql('select name from pgboss.queue order by name limit 1');
    const queue = (rows[0] as { name: string }).name;
    expect(first).toContain(`ecoa_jobs{queue="${queue}",state="created"} 0\n`);
    const second = await service.scrape();
    expect(second).toContain('ecoa_metrics_source_up{source="messages"} 1\n');
    expect(second).toContain('ecoa_messages{channel="rcs",status="queued"} 0\n');
  });
});
