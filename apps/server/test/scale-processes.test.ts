import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SmscSimulator,
  startSmscSimulator,
} from '../src/modules/channels/providers/smpp/simulator/smsc-simulator.ts';
import { uniqueEmail } from './factories.test-support.ts';
import { spawnEcoa } from './processes.test-support.ts';
import { runScaleCampaign } from './scale-campaign.test-support.ts';
import { dbKind, isolatedDatabaseUrl, tempDir } from './server.test-support.ts';

/**
 * Issue 24, goal 2, at CI's size: one SMS campaign run by the server and two `npm run worker`
 * processes on one PostgreSQL database, as `bench/scale.bench.ts` runs a million recipients:
 * every recipient sent once (the SMSC counts duplicates), every receipt recorded, the credits
 * exact, and each process's resident memory within the 400 MB the deployment is sized for.
 */
const RECIPIENTS = 5_000;

describe.skipIf(dbKind !== 'postgres')('a campaign across three processes (PostgreSQL)', () => {
  let smsc: SmscSimulator;
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  beforeAll(async () => {
    smsc = await startSmscSimulator({
      httpPort: null,
      outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
      receiptLatencyMs: 0,
    });
    own = await isolatedDatabaseUrl();
  });
  afterAll(async () => {
    await smsc?.close();
    await own?.drop();
  });

  it('sends each recipient once, records every receipt, captures the credits exactly, stays within 400 MB each', async () => {
    const env = {
      DATA_DIR: tempDir(),
      ADMIN_EMAIL: uniqueEmail('admin'),
      SMPP_URL: smsc.url,
      DATABASE_URL: own!.url,
    };
    const spawned: ChildProcess[] = [];
    const { figures, problems } = await runScaleCampaign(
      (entry, env) => {
        const child = spawnEcoa(entry, env);
        spawned.push(child);
        return child;
      },
      env,
      { n: RECIPIENTS, processes: 3 },
    );
    expect(problems).toEqual([]);
    expect(figures.delivered).toBe(RECIPIENTS);
    const counters = smsc.counters();
    expect({ messages: counters.messages, duplicates: counters.duplicates }).toEqual({
      messages: RECIPIENTS,
      duplicates: 0,
    });
    expect(spawned).toHaveLength(3);
    // The workers took part: the recipients were claimed by more than one process.
    const db = new pg.Client({ connectionString: own!.url });
    await db.connect();
    const { rows } = await db
      .query('select count(distinct worker_id)::int as n from messages where campaign_id is not null')
      .finally(() => db.end());
    expect(rows[0].n).toBeGreaterThanOrEqual(2);
    for (const mb of [figures.rssPeakServerMb, ...String(figures.rssPeakWorkersMb).split('/').map(Number)])
      expect(Number(mb)).toBeLessThanOrEqual(400);
  }, 240_000);
});
