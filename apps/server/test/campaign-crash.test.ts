import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, importList, mobile } from '../src/modules/campaigns/campaigns.test-support.ts';
import {
  type SmscSimulator,
  startSmscSimulator,
} from '../src/modules/channels/providers/smpp/simulator/smsc-simulator.ts';
import { bearer, signIn, signUpAndSignIn, uniqueEmail } from './factories.test-support.ts';
import { killed, spawnEcoa, startEcoaServer, waitUntil } from './processes.test-support.ts';
import { remoteServer } from './remote-server.test-support.ts';
import { dbKind, isolatedDatabaseUrl, tempDir } from './server.test-support.ts';

/**
 * The guarantee at the heart of Ecoa: whatever kills a process mid-campaign (SIGKILL here),
 * nobody gets the message twice and nobody is lost. The carrier (an SMSC simulator) lives in
 * the test process and outlives Ecoa, as a real one would; Ecoa runs as `npm start` would
 * (`src/main.ts`), and `npm run worker` (`src/worker.ts`) on PostgreSQL.
 */
const RECIPIENTS = 600;

type LedgerEntry = { kind: string; amount: number; reservedDelta: number; balanceAfter: number; reservedAfter: number };

/**
 * The user's SMS credits after the campaign, from the ledger's own entries and the balance: what
 * was reserved, captured and released adds up to the campaign's figures, the balance is what the
 * grant minus the captured credits leaves, and nothing stays reserved.
 */
async function expectCreditsSettled(
  server: ReturnType<typeof remoteServer>,
  token: string,
  expected: { granted: number; reserved: number; used: number },
) {
  const entries: LedgerEntry[] = [];
  for (let page = 1; ; page++) {
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/v1/ledger?type=SMSSHORT&pageSize=100&page=${page}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as LedgerEntry[];
    entries.push(...items);
    if (items.length < 100) break;
  }
  const sum = (kinds: string[], field: 'amount' | 'reservedDelta') =>
    entries.filter((e) => kinds.includes(e.kind)).reduce((total, e) => total + e[field], 0);
  expect({
    granted: sum(['ADMIN_ADJUSTMENT'], 'amount'),
    reserved: sum(['RESERVE'], 'reservedDelta'),
    used: 0 - sum(['CAPTURE'], 'reservedDelta'),
    released: 0 - sum(['RELEASE'], 'reservedDelta'),
  }).toEqual({ ...expected, released: expected.reserved - expected.used });
  // What came in (the grant and the sign-up bonus) less what the campaign used; newest entry first.
  const available = sum(['ADMIN_ADJUSTMENT', 'WELCOME_BONUS'], 'amount') - expected.used;
  expect(entries[0]).toMatchObject({ balanceAfter: available, reservedAfter: 0 });
  expect(sum(['ADMIN_ADJUSTMENT', 'WELCOME_BONUS', 'RESERVE', 'CAPTURE', 'RELEASE'], 'amount')).toBe(available);
  const balance = (
    await server.app.inject({ method: 'GET', url: '/api/v1/dashboard/balance', headers: bearer(token) })
  ).json();
  expect(balance.credits.SMSSHORT).toEqual({ available, reserved: 0 });
}

describe(`a campaign across a SIGKILL (${dbKind})`, () => {
  let smsc: SmscSimulator;
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    smsc = await startSmscSimulator({
      httpPort: null,
      outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
      receiptLatencyMs: 30,
    });
    own = await isolatedDatabaseUrl();
  });
  afterAll(async () => {
    for (const child of children) await killed(child, 'SIGKILL');
    await smsc?.close();
    await own?.drop();
  });

  async function setUp(env: Record<string, string>, baseUrl: string, dataDir: string) {
    const server = remoteServer(baseUrl, dataDir);
    const { token, user } = await signUpAndSignIn(server);
    const admin = await signIn(server, env.ADMIN_EMAIL!);
    const grant = await server.app.inject({
      method: 'POST',
      url: `/api/v1/admin/users/${user.id}/adjustments`,
      headers: bearer(admin.token),
      payload: { type: 'SMSSHORT', amount: 1000, reason: 'teste de queda' },
    });
    expect(grant.statusCode, grant.body).toBeLessThan(300);
    const list = await importList(
      server,
      token,
      Array.from({ length: RECIPIENTS }, () => ({ phone: mobile() })),
    );
    return { server, token, userId: user.id, list };
  }

  it('loses nobody and sends nobody twice when the server is killed mid-campaign', async () => {
    const dataDir = tempDir();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      SMPP_URL: smsc.url,
      ADMIN_EMAIL: uniqueEmail('admin'),
      ...(own ? { DATABASE_URL: own.url } : {}),
    };
    const first = await startEcoaServer(env);
    let ecoa = first.child;
    children.push(ecoa);
    const baseUrl = first.base;

    const { server, token, list } = await setUp(env, baseUrl, dataDir);
    const c = api(server, token);
    const id = await c.create({
      name: 'Queda',
      channel: 'sms_short',
      listIds: [list],
      content: { text: 'Promo {nome}' },
      maxRate: 100,
    });
    smsc.reset();
    await c.move(id, 'start');
    await waitUntil('a third to be sent', () => smsc.counters().messages >= RECIPIENTS / 3);
    await killed(ecoa, 'SIGKILL');
    const atKill = smsc.counters().messages;
    expect(atKill).toBeLessThan(RECIPIENTS);

    // The same port: the test's client keeps talking to the address it knows.
    const again = await startEcoaServer(env, first.port);
    expect(again.base, 'restarted on the same port').toBe(baseUrl);
    ecoa = again.child;
    children.push(ecoa);
    await c.waitFor(id, (x) => x.status === 'COMPLETED', 120_000);
    // Receipts the SMSC wrote to the killed process's socket are gone with it (the simulator does
    // not redeliver an unanswered receipt): those recipients were sent and stay `sent`.
    const done = await c.waitFor(id, (x) => x.counts.sent === 0, 10_000).catch(() => c.get(id));

    const counters = smsc.counters();
    expect(counters.duplicates).toBe(0);
    for (const dest of Object.values(counters.perDestination)) expect(dest.messages).toBe(1);
    // Every recipient is accounted for: delivered, sent (its receipt died with the process), or
    // unknown (cut off mid-send: maybe sent, never resent). Nobody is left queued or submitting.
    expect(done.counts).toMatchObject({ queued: 0, submitting: 0 });
    expect(done.counts.delivered + done.counts.sent + done.counts.unknown).toBe(RECIPIENTS);
    expect(done.counts.sent).toBeLessThan(50);
    expect(done.counts.delivered).toBeLessThanOrEqual(counters.messages);
    expect(counters.messages).toBeLessThanOrEqual(RECIPIENTS);
    expect(done.counts.unknown).toBeLessThan(100);
    expect(done.credits).toEqual({ reserved: RECIPIENTS, used: RECIPIENTS, released: 0 });
    await expectCreditsSettled(server, token, { granted: 1000, reserved: RECIPIENTS, used: RECIPIENTS });
    await killed(ecoa, 'SIGTERM');
  }, 240_000);

  it.runIf(dbKind === 'postgres')(
    'shares one campaign between two worker processes with zero duplicates',
    async () => {
      const dataDir = tempDir();
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        SMPP_URL: smsc.url,
        ADMIN_EMAIL: uniqueEmail('admin'),
        DATABASE_URL: own!.url,
      };
      const { child: web, base: baseUrl } = await startEcoaServer(env);
      children.push(web);
      const workers = [spawnEcoa('worker', env), spawnEcoa('worker', env)];
      children.push(...workers);
      const db = new pg.Client({ connectionString: own!.url });
      await db.connect();
      try {
        await waitUntil('three live dispatching processes', async () => {
          const { rows } = await db.query(
            "select count(*)::int as n from dispatch_workers where heartbeat_at > now() - interval '30 seconds'",
          );
          return rows[0].n >= 3;
        });
        const { server, token, list } = await setUp(env, baseUrl, dataDir);
        const c = api(server, token);
        const id = await c.create({
          name: 'Dois',
          channel: 'sms_short',
          listIds: [list],
          content: { text: 'Oi' },
          maxRate: 60,
        });
        smsc.reset();
        await c.move(id, 'start');
        const done = await c.waitFor(id, (x) => x.status === 'COMPLETED' && x.counts.sent === 0, 120_000);
        expect(done.counts.delivered).toBe(RECIPIENTS);
        expect(smsc.counters()).toMatchObject({ messages: RECIPIENTS, duplicates: 0 });
        expect(done.credits).toEqual({ reserved: RECIPIENTS, used: RECIPIENTS, released: 0 });
        await expectCreditsSettled(server, token, { granted: 1000, reserved: RECIPIENTS, used: RECIPIENTS });
        const { rows } = await db.query(
          'select count(distinct worker_id)::int as n from messages where campaign_id = $1',
          [id],
        );
        expect(rows[0].n).toBeGreaterThanOrEqual(2);
      } finally {
        await db.end();
        for (const w of [web, ...workers]) await killed(w, 'SIGTERM');
      }
    },
    240_000,
  );
});
