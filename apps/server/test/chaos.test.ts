import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Campaign } from '@ecoa/shared';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { WORKER_DEAD_AFTER_SECONDS } from '../src/modules/campaigns/campaigns.repository.ts';
import { api, importList, mobile } from '../src/modules/campaigns/campaigns.test-support.ts';
import { openDb } from '../src/platform/db/client.ts';
import {
  type Carriers,
  campaignProblems,
  FINAL,
  type Plan,
  seeded,
  sleep,
  startCarriers,
  type Tracked,
} from './chaos.test-support.ts';
import { bearer, signIn, signUpAndSignIn, uniqueEmail } from './factories.test-support.ts';
import { moneyProblems } from './money-invariants.test-support.ts';
import { killed, startEcoaServer } from './processes.test-support.ts';
import { remoteServer } from './remote-server.test-support.ts';
import { dbKind, freePort, isolatedDatabaseUrl, tempDir } from './server.test-support.ts';

/**
 * Chaos: campaigns on every channel while the test pauses, resumes and cancels them (as their
 * user and as an administrator) and SIGKILLs the server at seeded random points, several rounds.
 * After each round: nothing reached a carrier later than one window after a pause or cancel was
 * answered, nobody received anything twice, paused and ended campaigns hold no claimed rows and
 * their credits add up; at the end every campaign has ended, another user's scheduled campaign
 * ran, and the database's money adds up (chaos.test-support.ts, moneyProblems).
 * Replay a failure with the seed it printed: CHAOS_SEED=… npx vitest run apps/server/test/chaos.test.ts
 */
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 1e9));
const ROUNDS = 3;
/**
 * What may still reach a carrier after a pause or cancel was answered: the submits already on the
 * wire (the SMSC answers each in 150 ms, the HTTP carriers in 60 ms), with room for a loaded CI machine.
 */
const WINDOW_MS = 3_000;
/** The SMSC refuses every submit with 0x58 (throttled, retryable) this long after the campaigns start. */
const THROTTLE_MS = 6_000;
const UCS2_TEXT =
  'Olá! Promoção de verão ☀ na Ecoa: até 50% de desconto em todas as lojas físicas e online, só até domingo. Não perca — responda SAIR para não receber mais mensagens. 謝謝';

const PLANS: Plan[] = [
  { name: 'sms', channel: 'sms_short', size: 120, parts: 1, content: { text: 'Oferta {nome}' } },
  { name: 'sms-ucs2-3-parts', channel: 'sms_short', size: 30, parts: 3, content: { text: UCS2_TEXT } },
  {
    name: 'whatsapp',
    channel: 'whatsapp',
    size: 60,
    parts: 1,
    content: { template: { name: 'oferta', language: 'pt_BR', params: ['{nome}'] } },
  },
  { name: 'rcs', channel: 'rcs', size: 60, parts: 1, content: { card: { title: 'Oferta para {nome}' } } },
  // Voice goes at the calls pace (one a second): slow enough that a pause lands mid-campaign.
  { name: 'voice', channel: 'voice_torpedo', size: 25, parts: 1, content: { tts: 'Olá {nome}, sua fatura vence.' } },
];

describe(`chaos: pauses, cancels and SIGKILLs across every channel (${dbKind})`, () => {
  let carriers: Carriers | undefined;
  let own: Awaited<ReturnType<typeof isolatedDatabaseUrl>>;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) await killed(child, 'SIGKILL');
    await carriers?.close();
    await own?.drop();
  });

  it('keeps every promise: no late sends, no double sends, exact credits, no stuck campaign', async () => {
    const began = Date.now();
    const random = seeded(SEED);
    const log = (line: string) =>
      console.log(`[chaos seed=${SEED} ${dbKind} +${((Date.now() - began) / 1000).toFixed(1)}s] ${line}`);
    log(`starting (replay with CHAOS_SEED=${SEED})`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    carriers = await startCarriers(base);
    own = await isolatedDatabaseUrl();
    const dataDir = tempDir();
    const env: Record<string, string> = {
      ...carriers.env,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: uniqueEmail('admin'),
      ...(own ? { DATABASE_URL: own.url } : {}),
    };
    if (!own) {
      // The embedded database starts from the suite's migrated template (a fresh initdb and the
      // migrations took most of a minute on a loaded CI machine; they are not what this tests).
      const template = inject('pgliteTemplate');
      if (template) {
        const seeded = await openDb({
          pgliteDir: path.join(dataDir, 'pglite'),
          loadDataDir: new Blob([fs.readFileSync(template)]),
        });
        await seeded.close();
      }
    }
    let ecoa = (await startEcoaServer(env, port)).child;
    children.push(ecoa);
    log('server up');
    const restarts: number[] = [];
    const broken: string[] = [];
    let lastKillAt = 0;
    async function crash(): Promise<void> {
      log('SIGKILL');
      await killed(ecoa, 'SIGKILL');
      lastKillAt = Date.now();
      const t0 = Date.now();
      const again = await startEcoaServer(env, port);
      expect(again.base, 'restarted on the same port (the carriers call it back)').toBe(base);
      ecoa = again.child;
      children.push(ecoa);
      restarts.push(Date.now() - t0);
      log(`restarted in ${Date.now() - t0} ms`);
    }

    // --- two users: one runs the chaos, the other has a scheduled campaign -------------------
    const server = remoteServer(base, dataDir);
    const admin = await signIn(server, env.ADMIN_EMAIL!);
    const grant = async (userId: string, amount: number) => {
      for (const type of ['SMSSHORT', 'WHATSAPP', 'RCS', 'URA'] as const) {
        const res = await server.app.inject({
          method: 'POST',
          url: `/api/v1/admin/users/${userId}/adjustments`,
          headers: bearer(admin.token),
          payload: { type, amount, reason: 'teste de caos' },
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
      }
    };
    const chaosUser = await signUpAndSignIn(server);
    const otherUser = await signUpAndSignIn(server);
    await grant(chaosUser.user.id, 1000);
    await grant(otherUser.user.id, 100);
    const c = api(server, chaosUser.token);
    const other = api(server, otherUser.token);

    log('users ready');
    const tracked: Tracked[] = await Promise.all(
      PLANS.map(async (plan) => {
        const phones = Array.from({ length: plan.size }, () => mobile());
        const list = await importList(
          server,
          chaosUser.token,
          phones.map((phone, i) => ({ phone, name: `Pessoa ${i}` })),
          plan.name,
        );
        const id = await c.create({ name: plan.name, channel: plan.channel, listIds: [list], content: plan.content });
        return { ...plan, id, phones };
      }),
    );
    const scheduledPhones = Array.from({ length: 5 }, () => mobile());
    const scheduledList = await importList(
      server,
      otherUser.token,
      scheduledPhones.map((phone) => ({ phone })),
    );
    const scheduled = await other.create({
      name: 'agendada',
      channel: 'sms_short',
      listIds: [scheduledList],
      content: { text: 'Lembrete agendado' },
      schedule: new Date(Date.now() + 20_000).toISOString(),
    });
    expect((await other.move(scheduled, 'start')).status).toBe('SCHEDULED');

    // The carrier's refusal window: every SMS submit throttled (0x58, retryable) for a while.
    carriers.smsc.setOptions({ throttleShare: 1 });
    setTimeout(() => carriers?.smsc.setOptions({ throttleShare: 0 }), THROTTLE_MS).unref();
    for (const t of tracked) expect((await c.move(t.id, 'start')).status).toBe('RUNNING');
    log(`started ${tracked.map((t) => `${t.name}=${t.id}`).join(' ')}`);

    // --- the moves ---------------------------------------------------------------------------
    const adminMove = (id: string, move: 'pause' | 'cancel') =>
      server.app.inject({ method: 'POST', url: `/api/v1/admin/campaigns/${id}/${move}`, headers: bearer(admin.token) });
    async function act(t: Tracked, move: 'pause' | 'resume' | 'cancel', asAdmin: boolean): Promise<void> {
      const res =
        asAdmin && move !== 'resume'
          ? await adminMove(t.id, move)
          : await c.call('POST', `/api/v1/campaigns/${t.id}/${move}`);
      const answeredAt = Date.now();
      const who = asAdmin ? 'admin' : 'user';
      // A campaign that ended meanwhile refuses the move (409): nothing to check then.
      if (res.statusCode === 409) {
        log(`${who} ${move} ${t.name}: refused ${res.json().code}`);
        return;
      }
      expect(res.statusCode, `${who} ${move} ${t.name}: ${res.body}`).toBe(200);
      const status = (res.json() as Campaign).status;
      log(`${who} ${move} ${t.name} → ${status}`);
      if (move === 'resume') t.frozen = undefined;
      else if (!t.canceled) t.frozen = { why: `${who} ${move}`, answeredAt };
      if (move === 'cancel') t.canceled = true;
    }
    async function statuses(): Promise<Map<string, Campaign>> {
      return new Map(await Promise.all(tracked.map(async (t) => [t.id, await c.get(t.id)] as const)));
    }

    /** The round's checks (and, with `final`, the end's): every problem as a sentence. */
    async function problems(final: boolean): Promise<string[]> {
      const found: string[] = [];
      const now = await statuses();
      for (const t of tracked) {
        // On PostgreSQL a killed process's claims stay until its heartbeat is old enough for the
        // supervisor to call it dead (other live processes may share the database); on PGlite a
        // start knows every other worker on record is dead.
        const deadClaimsPending =
          !final && dbKind === 'postgres' && Date.now() - lastKillAt < (WORKER_DEAD_AFTER_SECONDS + 10) * 1000;
        found.push(
          ...campaignProblems(t, now.get(t.id)!, carriers!, { final, deadClaimsPending, windowMs: WINDOW_MS }),
        );
      }
      const smsDuplicates = carriers!.smsc.counters().duplicates;
      if (smsDuplicates > 0) found.push(`the SMSC received ${smsDuplicates} duplicate messages`);
      return found;
    }

    // --- the rounds --------------------------------------------------------------------------
    for (let round = 1; round <= ROUNDS; round++) {
      await sleep(1_000 + random() * 3_000);
      log(`round ${round}`);
      const before = await statuses();
      for (const t of tracked) {
        const status = before.get(t.id)!.status;
        const roll = random();
        const asAdmin = random() < 0.4;
        if (status === 'PAUSED') {
          // The system pauses a campaign whose carrier keeps refusing; a user resumes it.
          if (!t.frozen || roll < 0.6) await act(t, 'resume', false);
        } else if (status === 'RUNNING') {
          if (roll < 0.35) await act(t, 'pause', asAdmin);
          else if (roll < 0.5) await act(t, 'cancel', asAdmin);
        }
      }
      const actedAt = Date.now();
      // The kill lands before or after the window of the moves just answered, or not at all.
      const killAfter = random() < 0.75 || round === ROUNDS ? random() * (WINDOW_MS + 2_000) : null;
      if (killAfter !== null && killAfter < WINDOW_MS) {
        await sleep(killAfter);
        await crash();
      }
      await sleep(Math.max(0, actedAt + WINDOW_MS - Date.now()));
      for (const t of tracked) {
        if (t.frozen && t.frozen.baseline === undefined) t.frozen.baseline = carriers.handedOver(t.phones);
      }
      if (killAfter !== null && killAfter >= WINDOW_MS) {
        await sleep(killAfter - WINDOW_MS);
        await crash();
      }
      // Time for anything that should not happen to happen.
      await sleep(2_000 + random() * 2_000);
      const found = await problems(false);
      if (found.length > 0) log(`round ${round} broke:\n  ${found.join('\n  ')}`);
      // Every round's problems are kept and the rounds go on: one run shows all that breaks.
      broken.push(...found.map((p) => `round ${round}: ${p}`));
    }

    // --- the end: resumed or left alone, every campaign ends -----------------------------------
    for (const [id, campaign] of await statuses()) {
      if (campaign.status === 'PAUSED') await act(tracked.find((t) => t.id === id)!, 'resume', false);
    }
    const deadline = Date.now() + 90_000;
    const ended = (x: Campaign) => FINAL.includes(x.status) && x.counts.queued + x.counts.submitting === 0;
    for (const t of tracked) {
      await c.waitFor(t.id, ended, Math.max(1_000, deadline - Date.now())).catch(() => {});
    }
    const late = await other
      .waitFor(scheduled, ended, Math.max(1_000, deadline - Date.now()))
      .catch(() => other.get(scheduled));
    if (!ended(late) || late.status !== 'COMPLETED')
      broken.push(`the end: another user's scheduled campaign is ${late.status} ${JSON.stringify(late.counts)}`);
    const found = await problems(true);
    if (found.length > 0) log(`the end broke:\n  ${found.join('\n  ')}`);
    broken.push(...found.map((p) => `the end: ${p}`));

    // --- the money, read from the database once Ecoa has stopped ------------------------------
    await killed(ecoa, 'SIGTERM');
    const db = await openDb(own ? { databaseUrl: own.url } : { pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const money = await moneyProblems(db, [chaosUser.user.id, otherUser.user.id]);
      if (money.length > 0) log(`the money broke:\n  ${money.join('\n  ')}`);
      broken.push(...money.map((p) => `the money: ${p}`));
    } finally {
      await db.close();
    }
    log(`done in ${((Date.now() - began) / 1000).toFixed(1)} s; restarts took ${restarts.join(', ')} ms`);
    expect(broken, `CHAOS_SEED=${SEED}`).toEqual([]);
  }, 300_000);
});
