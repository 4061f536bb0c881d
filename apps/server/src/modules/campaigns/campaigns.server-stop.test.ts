import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestServer,
  isolatedDatabaseUrl,
  listeningTestConfig,
  openTestDb,
} from '../../../test/server.test-support.ts';
import { type DbHandle, openDb } from '../../platform/db/client.ts';
import type { RunningServer } from '../../server.ts';
import { credits, WELL_BEHAVED } from '../channels/channels.test-support.ts';
import type { SimulatorOverrides } from '../channels/providers/index.ts';
import { api, campaignsUser, freshMobiles, importList } from './campaigns.test-support.ts';

/**
 * A server stopping (SIGTERM → server.close()) mid-campaign: it
 * returns within seconds, not after whole batches; what was claimed and never handed to the
 * carrier is `queued` again, never charged as `unknown`; the next start sends each of them once.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** "Within seconds": a stop that waited for its batches took minutes here (2 min for SMS, 60 s for voice). */
const STOP_WITHIN_MS = 10_000;

describe('a server stopping mid-campaign', () => {
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  let db: DbHandle;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    own = await isolatedDatabaseUrl();
    db = own ? await openDb({ databaseUrl: own.url, poolSize: 4 }) : await openTestDb();
  });
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => {});
    await db?.close();
    await own?.drop();
  });

  async function start(simulators: SimulatorOverrides): Promise<RunningServer> {
    const config = await listeningTestConfig();
    const server = await createTestServer({
      config: own ? { ...config, databaseUrl: own.url } : config,
      db,
      listen: true,
      simulators,
    });
    servers.push(server);
    return server;
  }

  it.each([
    {
      channel: 'sms_short' as const,
      type: 'SMSSHORT' as const,
      recipients: 200,
      content: { text: 'Oi' },
      // An SMSC throttling everything for 20 s: the claimed recipients wait in the provider's queue.
      simulators: { ...WELL_BEHAVED, smsc: { ...WELL_BEHAVED.smsc, responseLatencyMs: 400 } },
      congest: (s: RunningServer) => s.providers.simulators.smsc!.setOptions({ throttleUntil: Date.now() + 20_000 }),
      reached: (s: RunningServer) => s.providers.simulators.smsc!.counters().messages,
    },
    {
      channel: 'voice_torpedo' as const,
      type: 'URA' as const,
      recipients: 25,
      content: { tts: 'Olá' },
      // 1 call/s: the claimed recipients wait for the call pacer.
      simulators: { ...WELL_BEHAVED, voice: { ...WELL_BEHAVED.voice, callsPerSecond: 1 } },
      congest: () => {},
      reached: (s: RunningServer) => s.providers.simulators.voice!.counters().totals.calls,
    },
  ])(
    '$channel: stop returns within seconds, what was not handed over is queued, the next start sends it once',
    async ({ channel, type, recipients, content, simulators, congest, reached }) => {
      const first = await start(simulators);
      const { user, api: c } = await campaignsUser(first, 500);
      const list = await importList(first, user.token, freshMobiles(recipients));
      const id = await c.create({ name: 'Parada', channel, listIds: [list], content });
      congest(first);
      await c.move(id, 'start');
      await sleep(3000);
      const t0 = Date.now();
      await first.close();
      const stopMs = Date.now() - t0;
      const sentBefore = reached(first);
      expect(stopMs).toBeLessThan(STOP_WITHIN_MS);

      // Read before anything starts again: nothing left `submitting`, nobody `unknown` (charged) for a
      // message never handed over, everything not sent queued.
      const { rows } = await db.executeSql(
        'select status, count(*)::int as n from messages where campaign_id = $1 group by status',
        [id],
      );
      const left = Object.fromEntries((rows as { status: string; n: number }[]).map((r) => [r.status, Number(r.n)]));
      expect(left.submitting ?? 0).toBe(0);
      expect(left.unknown ?? 0).toBe(0);
      expect(left.queued ?? 0).toBe(recipients - sentBefore);
      expect(left.queued ?? 0).toBeGreaterThan(0);

      const second = await start(simulators);
      const c2 = api(second, user.token);
      // Not waiting for every last word: a call placed just before the stop reports to the stopped
      // server's address (the next one listens elsewhere here), so it may stay `sent`.
      const done = await c2.waitFor(id, (x) => x.status === 'COMPLETED', 120_000);
      expect(done.status).toBe('COMPLETED');
      expect(done.counts.unknown).toBe(0);
      expect(sentBefore + reached(second)).toBe(recipients);
      expect(done.credits).toEqual({ reserved: recipients, used: recipients, released: 0 });
      expect(await credits(second, user.id, type)).toEqual({ available: 500 - recipients, reserved: 0 });
      await second.close();
    },
    240_000,
  );
});
