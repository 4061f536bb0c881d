/**
 * For the campaigns tests: lists imported through the real upload route, campaigns driven
 * through the real API, and waits on their progress.
 */
import type { Campaign, CampaignEstimate, CreateCampaignRequest } from '@ecoa/shared';
import { expect } from 'vitest';
import { wavFile } from '../../../test/audio-builder.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import { waitForListImported } from '../../../test/lists.test-support.ts';
import { multipart } from '../../../test/multipart.test-support.ts';
import {
  createTestServer,
  fixtureWebRoot,
  isolatedDatabaseUrl,
  listeningTestConfig,
  openTestDb,
  silentLogger,
  testConfig,
} from '../../../test/server.test-support.ts';
import { buildApp } from '../../app.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { type DbHandle, openDb } from '../../platform/db/client.ts';
import { runMigrations } from '../../platform/db/migrate.ts';
import { createJobs } from '../../platform/jobs/jobs.ts';
import type { RunningServer } from '../../server.ts';
import { userWithCredits, WELL_BEHAVED } from '../channels/channels.test-support.ts';
import type { ChannelProvider } from '../channels/provider.ts';
import type { SimulatorOverrides } from '../channels/providers/index.ts';
import { createProviderRegistry } from '../channels/providers/registry.ts';
import { composeModules } from '../index.ts';
import { dispatchQueue } from './campaigns.jobs.ts';
import { createCampaignsRepository } from './campaigns.repository.ts';
import type { CampaignRow } from './campaigns.schema.ts';

/**
 * A listening server with the carriers' simulators, on a database of its own (on PostgreSQL
 * another test file's server would otherwise take its dispatch jobs, through its own simulators).
 */
export async function startCampaignsServer(
  options: { simulators?: SimulatorOverrides; clock?: Clock } = {},
): Promise<RunningServer> {
  return createTestServer({
    config: await listeningTestConfig(),
    listen: true,
    simulators: options.simulators ?? WELL_BEHAVED,
    isolated: true,
    clock: options.clock,
  });
}

/**
 * The real server modules with `carrier` as their only provider (or `carrier`'s providers), the job
 * workers on, on a database of their own on PostgreSQL (no other file's server may take these
 * dispatch jobs). `close` stops the server, then closes the database and drops it.
 */
export async function startCarrierServer(
  carrier: ChannelProvider | readonly ChannelProvider[],
): Promise<{ server: RunningServer; handle: DbHandle; close(): Promise<void> }> {
  const own = await isolatedDatabaseUrl();
  const handle = own ? await openDb({ databaseUrl: own.url, poolSize: 6 }) : await openTestDb();
  await runMigrations(handle);
  const config = testConfig(own ? { DATABASE_URL: own.url } : {});
  const jobs = createJobs(handle, silentLogger);
  const registry = createProviderRegistry(Array.isArray(carrier) ? carrier : [carrier]);
  // The carrier accounts this server's beats name (a process on others shares no rate with it).
  const carriers = ['test:carrier'];
  const modules = composeModules({ config, db: handle, jobs, logger: silentLogger, providers: registry, carriers });
  await jobs.start({ work: true });
  const app = await buildApp({ config, db: handle, jobs, logger: silentLogger, webRoot: fixtureWebRoot() });
  await modules.registerRoutes(app);
  await app.ready();
  const server: RunningServer = {
    app,
    config,
    db: handle,
    jobs,
    modules,
    providers: { registry, carriers, simulators: {}, close: async () => {} },
    close: async () => {
      await app.close();
      await modules.dispatcher.stop();
      await jobs.stop();
      await modules.channels.closeReceipts();
    },
  };
  const close = async () => {
    await server.close();
    await handle.close();
    await own?.drop();
  };
  return { server, handle, close };
}

/** `startCampaignsServer` on a manual clock, as `openBeforeAll` takes it. */
export const campaignsServerOn = (clock: Clock) => () => startCampaignsServer({ clock });

/**
 * A Monday at 08:00 in São Paulo (UTC−3, no daylight saving), an hour before WORKDAYS (and the
 * default window) opens, and always in the future: housekeeping prunes login codes by the
 * database's own clock, so a fixed date that has passed would expire the codes tests sign in with.
 */
export const MONDAY_8AM = (() => {
  const day = new Date(Date.now() + 7 * 86_400_000);
  day.setUTCHours(11, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7)); // the next Monday (UTC)
  return day;
})();
/** The same Monday at 09:30, inside WORKDAYS. */
export const MONDAY_930 = new Date(MONDAY_8AM.getTime() + 90 * 60_000);
/** Monday to Saturday, 09:00 to 21:00. */
export const WORKDAYS = { days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' };

/** Every day, all day: tests that are not about the window never wait for it. */
export const ALWAYS = { days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' };

let phoneSeq = 0;
/** A fresh valid São Paulo mobile number (E.164), different across the whole test run. */
export function mobile(): string {
  phoneSeq++;
  const n = (process.pid * 1000 + phoneSeq) % 100_000_000;
  return `+55119${String(n).padStart(8, '0')}`;
}

export async function importList(
  server: RunningServer,
  token: string,
  rows: { phone: string; name?: string; [field: string]: string | undefined }[],
  name = 'Lista',
): Promise<string> {
  const extra = Object.keys(rows[0] ?? {}).filter((k) => k !== 'phone' && k !== 'name');
  const lines = [
    ['telefone', 'nome', ...extra].join(';'),
    ...rows.map((r) => [r.phone, r.name ?? '', ...extra.map((k) => r[k] ?? '')].join(';')),
  ];
  const id = await postCreated(server, token, '/api/v1/lists', [
    { name: 'name', value: name },
    { name: 'file', filename: 'lista.csv', content: Buffer.from(lines.join('\n'), 'utf8') },
  ]);
  // Imports queue behind each other (the chaos test sends five at once) on a loaded machine.
  const list = await waitForListImported(server, token, id, 90_000);
  if (list.status !== 'ready') throw new Error(`list not ready: ${JSON.stringify(list)}`);
  return id;
}

/** A campaign's row as the supervisor reads it (for tests that hand a row to the lifecycle, e.g. `startScheduled`). */
export async function campaignRow(server: RunningServer, id: string): Promise<CampaignRow> {
  const row = await createCampaignsRepository(server.db.db).findById(id);
  if (!row) throw new Error(`campaign ${id} not found`);
  return row;
}

type SmscSimulator = NonNullable<RunningServer['providers']['simulators']['smsc']>;

/** Runs `fn` with the SMSC simulator's options changed, and puts back the ones it changed. */
export async function withSmscOptions<T>(
  smsc: SmscSimulator,
  changes: Partial<ReturnType<SmscSimulator['options']>>,
  fn: () => Promise<T>,
): Promise<T> {
  const current = smsc.options();
  const before = Object.fromEntries(Object.keys(changes).map((key) => [key, current[key as keyof typeof current]]));
  smsc.setOptions(changes);
  try {
    return await fn();
  } finally {
    smsc.setOptions(before);
  }
}

/** The dispatch jobs ever queued for a campaign, run or not. */
export async function dispatchJobsQueued(db: Pick<DbHandle, 'executeSql'>, campaignId: string): Promise<number> {
  const { rows } = await db.executeSql(
    `select count(*)::int as n from pgboss.job where name = $1 and data->>'campaignId' = $2`,
    [dispatchQueue.name, campaignId],
  );
  return (rows[0] as { n: number }).n;
}

/**
 * Resolves once every way this process sends for the campaign has had its chance and stopped: the
 * `campaigns.dispatch` jobs queued for it ended (none waiting, retrying or running), a supervisor
 * pass ran (it joins or queues again what it judges due), and one more dispatch loop ran on it to
 * its end. A test that checks something did not happen (nothing sent outside the window, nothing
 * after a pause) looks after this, not after a guessed pause.
 */
export async function dispatchSettled(server: RunningServer, campaignId: string, timeoutMs = 30_000) {
  await dispatchJobsEnded(server, campaignId, timeoutMs);
  await server.modules.supervisor.pass();
  await dispatchJobsEnded(server, campaignId, timeoutMs);
  await server.modules.dispatcher.run(campaignId);
}

async function dispatchJobsEnded(server: RunningServer, campaignId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await server.db.executeSql(
      `select count(*)::int as total, (count(*) filter (where state in ('created', 'retry', 'active')))::int as open
         from pgboss.job where name = $1 and data->>'campaignId' = $2`,
      [dispatchQueue.name, campaignId],
    );
    const { total, open } = rows[0] as { total: number; open: number };
    if (total > 0 && open === 0) return;
    if (Date.now() > deadline) throw new Error(`campaign ${campaignId}: ${open} of ${total} dispatch jobs still open`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function api(server: RunningServer, token: string) {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    injectAs(server, token, { method, url, ...(payload ? { payload } : {}) });
  return {
    call,
    async create(body: CreateCampaignRequest): Promise<string> {
      const res = await call('POST', '/api/v1/campaigns', { window: ALWAYS, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id;
    },
    async get(id: string): Promise<Campaign> {
      const res = await call('GET', `/api/v1/campaigns/${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    async estimate(id: string): Promise<CampaignEstimate> {
      const res = await call('GET', `/api/v1/campaigns/${id}/estimate`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    async move(id: string, move: 'start' | 'pause' | 'resume' | 'cancel'): Promise<Campaign> {
      const res = await call('POST', `/api/v1/campaigns/${id}/${move}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    /** Polls until `until` holds (default: the campaign ended and every recipient has its last word). */
    async waitFor(
      id: string,
      until: (c: Campaign) => boolean = (c) =>
        ['COMPLETED', 'CANCELED', 'FAILED'].includes(c.status) && c.finishedAt !== null && c.counts.sent === 0,
      timeoutMs = 30_000,
    ): Promise<Campaign> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const c = await this.get(id);
        if (until(c)) return c;
        if (Date.now() > deadline)
          throw new Error(
            `campaign ${id} still ${c.status}: ${JSON.stringify({ counts: c.counts, reasons: c.reasons, why: c.statusDetail })}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** `count` fresh mobiles, the rows of a list whose recipients are all alike. */
export function freshMobiles(count: number): { phone: string }[] {
  return Array.from({ length: count }, () => ({ phone: mobile() }));
}

/** A short SMS campaign's body: its name, one list, and a text ('Oi' where the text is not the point). */
export function smsCampaign(name: string, list: string, text = 'Oi'): CreateCampaignRequest {
  return { name, channel: 'sms_short', listIds: [list], content: { text } };
}

/** A user with `count` of each paid credit type, and the campaigns API as that user. */
export async function campaignsUser(server: RunningServer, count: number) {
  const user = await userWithCredits(server, count);
  return { user, api: api(server, user.token) };
}

/** A one-second WAV uploaded through the real route as the user with `token`: its id. */
export function uploadAudio(server: RunningServer, token: string): Promise<string> {
  return postCreated(server, token, '/api/v1/audios', [
    { name: 'name', value: 'Aviso' },
    { name: 'file', filename: 'aviso.wav', content: wavFile({ seconds: 1 }) },
  ]);
}

/** A multipart form POSTed through the real route as the user with `token`; 201 expected: the new id. */
async function postCreated(
  server: RunningServer,
  token: string,
  url: string,
  parts: Parameters<typeof multipart>[0],
): Promise<string> {
  const form = multipart(parts);
  const res = await injectAs(server, token, { method: 'POST', url, payload: form.payload, headers: form.headers });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
