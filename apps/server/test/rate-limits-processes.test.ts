import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { api, importList, mobile } from '../src/modules/campaigns/campaigns.test-support.ts';
import { startSmscSimulator } from '../src/modules/channels/providers/smpp/index.ts';
import { startWhatsAppSimulator } from '../src/modules/channels/providers/whatsapp/whatsapp.simulator.ts';
import { bearer, signIn, signUpAndSignIn, uniqueEmail } from './factories.test-support.ts';
import { killed, spawnEcoa, startEcoaServer, waitUntil } from './processes.test-support.ts';
import { remoteServer } from './remote-server.test-support.ts';
import { dbKind, isolatedDatabaseUrl, tempDir } from './server.test-support.ts';

/**
 * Issue 24: the rates that protect the carriers hold across processes. The server and two
 * `npm run worker` processes share an SMS and a WhatsApp campaign on one PostgreSQL; the
 * simulators count, outside Ecoa, the most submits (SMPP) and send calls (WhatsApp) that arrived in
 * any one second. Neither may pass the rate Ecoa is configured with, and the carriers refuse
 * nothing for speed, although several processes sent part of each campaign.
 */
const SMPP_TPS = 30;
const WHATSAPP_PER_SECOND = 15;
const SMS_RECIPIENTS = 240;
const WHATSAPP_RECIPIENTS = 120;

describe.skipIf(dbKind !== 'postgres')('carrier rates across three processes (PostgreSQL)', () => {
  const children: ChildProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const child of children) await killed(child, 'SIGTERM');
    for (const close of closers.reverse()) await close();
  });

  it('never passes the SMPP bind tps nor WhatsApp messages per second, in any second', async () => {
    const own = await isolatedDatabaseUrl();
    closers.push(() => own!.drop());
    // The SMSC also refuses (0x58) whatever comes above the tps: a refusal would show a breach too.
    const smsc = await startSmscSimulator({
      httpPort: null,
      outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
      receiptLatencyMs: 0,
      throttleAboveTps: SMPP_TPS,
    });
    closers.push(() => smsc.close());
    // The callback URL is known once the server listens; the simulator's options take it then.
    const whatsapp = await startWhatsAppSimulator({
      outcomeMix: { delivered: 1, read: 0, notOnWhatsApp: 0, reengagement: 0 },
      statusDelayMs: 0,
      throughputPerSecond: WHATSAPP_PER_SECOND,
    });
    closers.push(() => whatsapp.close());
    const env: Record<string, string> = {
      DATA_DIR: tempDir(),
      ADMIN_EMAIL: uniqueEmail('admin'),
      DATABASE_URL: own!.url,
      SMPP_URL: `${smsc.url}?tps=${SMPP_TPS}`,
      WHATSAPP_API_URL: whatsapp.config.apiUrl,
      WHATSAPP_API_VERSION: whatsapp.config.apiVersion,
      WHATSAPP_PHONE_NUMBER_ID: whatsapp.config.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: whatsapp.config.accessToken,
      WHATSAPP_APP_SECRET: whatsapp.config.appSecret,
      WHATSAPP_VERIFY_TOKEN: whatsapp.config.verifyToken,
      WHATSAPP_MESSAGES_PER_SECOND: String(WHATSAPP_PER_SECOND),
    };
    const ecoa = await startEcoaServer(env);
    children.push(ecoa.child);
    whatsapp.setOptions({ callbackUrl: `${ecoa.base}/api/webhooks/whatsapp/events` });
    children.push(spawnEcoa('worker', env), spawnEcoa('worker', env));

    const server = remoteServer(ecoa.base, env.DATA_DIR!);
    const admin = await signIn(server, env.ADMIN_EMAIL!);
    const { token, user } = await signUpAndSignIn(server);
    for (const [type, amount] of [
      ['SMSSHORT', SMS_RECIPIENTS],
      ['WHATSAPP', WHATSAPP_RECIPIENTS],
    ] as const) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/v1/admin/users/${user.id}/adjustments`,
        headers: bearer(admin.token),
        payload: { type, amount, reason: 'teste de limites' },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const c = api(server, token);
    const listOf = async (n: number, name: string) =>
      importList(
        server,
        token,
        Array.from({ length: n }, (_, i) => ({ phone: mobile(), name: `Pessoa ${i}` })),
        name,
      );
    const sms = await c.create({
      name: 'sms',
      channel: 'sms_short',
      listIds: [await listOf(SMS_RECIPIENTS, 'sms')],
      content: { text: 'Oferta {nome}' },
    });
    const wa = await c.create({
      name: 'whatsapp',
      channel: 'whatsapp',
      listIds: [await listOf(WHATSAPP_RECIPIENTS, 'whatsapp')],
      content: { template: { name: 'oferta', language: 'pt_BR', params: ['{nome}'] } },
    });
    // Both workers are counted among the live dispatchers before the campaigns start.
    const db = new pg.Client({ connectionString: own!.url });
    await db.connect();
    closers.push(() => db.end());
    await waitUntil(
      'three live dispatchers',
      async () => (await db.query('select count(*)::int as n from dispatch_workers')).rows[0].n >= 3,
      120_000,
    );
    for (const id of [sms, wa]) expect((await c.move(id, 'start')).status).toBe('RUNNING');

    await waitUntil(
      'both campaigns completed',
      async () => {
        const [a, b] = await Promise.all([c.get(sms), c.get(wa)]);
        return a.status === 'COMPLETED' && b.status === 'COMPLETED';
      },
      180_000,
    );

    const smscCounters = smsc.counters();
    const waCounters = whatsapp.counters();
    expect({
      smsMessages: smscCounters.messages,
      smsThrottled: smscCounters.throttled,
      whatsappAccepted: waCounters.accepted,
      whatsappRefused: waCounters.rejected,
    }).toEqual({
      smsMessages: SMS_RECIPIENTS,
      smsThrottled: 0,
      whatsappAccepted: WHATSAPP_RECIPIENTS,
      whatsappRefused: {},
    });
    expect(smscCounters.maxSubmitsPerSecond).toBeLessThanOrEqual(SMPP_TPS);
    expect(waCounters.maxRequestsPerSecond).toBeLessThanOrEqual(WHATSAPP_PER_SECOND);
    // The limit was shared, not kept by one process alone: several processes sent part of each campaign.
    const { rows } = await db.query(
      'select campaign_id, count(distinct worker_id)::int as n from messages where campaign_id = any($1::uuid[]) group by 1',
      [[sms, wa]],
    );
    expect(rows).toHaveLength(2);
    for (const { n } of rows) expect(n).toBeGreaterThanOrEqual(2);
  }, 420_000);
});
