/**
 * The carriers and the checks of the chaos test (chaos.test.ts): the four simulators live in the
 * test process, so they outlive every SIGKILL of Ecoa as real carriers would, and count what each
 * number received; a seeded generator picks the test's moves, its seed printed so a failure can be
 * replayed (`CHAOS_SEED=… npx vitest run apps/server/test/chaos.test.ts`).
 */
import { startRcsSimulator } from '../src/modules/channels/providers/rcs/rcs.simulator.ts';
import { startSmscSimulator } from '../src/modules/channels/providers/smpp/index.ts';
import { startVoiceSimulator } from '../src/modules/channels/providers/voice/index.ts';
import { startWhatsAppSimulator } from '../src/modules/channels/providers/whatsapp/whatsapp.simulator.ts';
import type { DbHandle } from '../src/platform/db/client.ts';

/** The SMSC's submits per second as Ecoa's bind is told (SMPP_URL ?tps=): a slow carrier. */
export const SMSC_TPS = 20;
/** WhatsApp and RCS sends per second Ecoa allows itself. */
export const HTTP_CHANNEL_TPS = 10;

export type Carriers = Awaited<ReturnType<typeof startCarriers>>;

/** The four carriers, their webhooks aimed at the Ecoa that will listen on `callback`. */
export async function startCarriers(callback: string) {
  const smsc = await startSmscSimulator({
    httpPort: null,
    outcomes: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
    receiptLatencyMs: 100,
    // Each submit answered after a while: a window of submits is on the wire at any time.
    responseLatencyMs: 150,
  });
  const whatsapp = await startWhatsAppSimulator({
    callbackUrl: `${callback}/api/webhooks/whatsapp/events`,
    outcomeMix: { delivered: 1, read: 0, notOnWhatsApp: 0, reengagement: 0 },
    latencyMs: 60,
    statusDelayMs: 100,
    throughputPerSecond: null,
  });
  const rcs = await startRcsSimulator({
    callbackUrl: `${callback}/api/webhooks/rcs/events`,
    outcomeMix: { delivered: 1, read: 0, notCapable: 0 },
    latencyMs: 60,
    eventDelayMs: 100,
    throughputPerSecond: null,
  });
  const voice = await startVoiceSimulator({
    apiLatencyMs: 20,
    ringMs: 50,
    callMs: 300,
    outcomes: { answered: 1 },
    keys: { '1': 1 },
  });
  const env: Record<string, string> = {
    SMPP_URL: `${smsc.url}?tps=${SMSC_TPS}`,
    WHATSAPP_API_URL: whatsapp.config.apiUrl,
    WHATSAPP_API_VERSION: whatsapp.config.apiVersion,
    WHATSAPP_PHONE_NUMBER_ID: whatsapp.config.phoneNumberId,
    WHATSAPP_ACCESS_TOKEN: whatsapp.config.accessToken,
    WHATSAPP_APP_SECRET: whatsapp.config.appSecret,
    WHATSAPP_VERIFY_TOKEN: whatsapp.config.verifyToken,
    WHATSAPP_MESSAGES_PER_SECOND: String(HTTP_CHANNEL_TPS),
    RCS_API_URL: rcs.config.apiUrl,
    RCS_AGENT_ID: rcs.config.agentId,
    RCS_SERVICE_ACCOUNT_FILE: rcs.config.serviceAccountFile,
    RCS_WEBHOOK_TOKEN: rcs.config.webhookToken,
    RCS_MESSAGES_PER_SECOND: String(HTTP_CHANNEL_TPS),
    VOICE_API_URL: voice.account.apiUrl,
    VOICE_ACCOUNT_SID: voice.account.accountSid,
    VOICE_AUTH_TOKEN: voice.account.authToken,
    VOICE_FROM: voice.account.from,
  };

  /** What each number received, per carrier: SMS parts, WhatsApp and RCS messages taken, calls placed. */
  function received(phone: string): { sms: number; smsMessages: number; whatsapp: number; rcs: number; calls: number } {
    const bare = phone.replace(/^\+/, '');
    const sms = smsc.counters().perDestination;
    const wa = whatsapp.counters().destinations;
    const rc = rcs.counters().destinations;
    const vo = voice.counters().destinations;
    const s = sms[phone] ?? sms[bare];
    return {
      sms: s?.parts ?? 0,
      smsMessages: s?.messages ?? 0,
      whatsapp: (wa[phone] ?? wa[bare])?.accepted ?? 0,
      rcs: (rc[phone] ?? rc[bare])?.accepted ?? 0,
      calls: (vo[phone] ?? vo[bare])?.calls ?? 0,
    };
  }

  return {
    smsc,
    whatsapp,
    rcs,
    voice,
    env,
    received,
    /** Everything the carriers took for these numbers (parts for SMS): what must stand still after a pause. */
    handedOver(phones: string[]): number {
      return phones.reduce((n, p) => {
        const r = received(p);
        return n + r.sms + r.whatsapp + r.rcs + r.calls;
      }, 0);
    },
    async close() {
      await Promise.allSettled([smsc.close(), whatsapp.close(), rcs.close(), voice.close()]);
    },
  };
}

/** mulberry32: the test's moves from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The money and row invariants, read from the database once Ecoa is stopped: every problem as a
 * sentence (none when all hold).
 *  - every row of an ended campaign is final (or `sent`/`unknown`: handed over, its credits captured);
 *  - per campaign, used + released = reserved, used = the parts handed over (submitted or cut off
 *    as unknown), released = the parts never handed over, and the campaign's ledger entries hold
 *    none of its credits reserved any more;
 *  - per user and credit type, the ledger's entries sum to the balance (available and reserved).
 */
export async function moneyProblems(db: DbHandle, userIds: string[]): Promise<string[]> {
  const problems: string[] = [];
  const q = async <T>(text: string, values: unknown[] = []) => (await db.executeSql(text, values)).rows as T[];
  const campaigns = await q<{
    id: string;
    name: string;
    status: string;
    reserved: number;
    used: number;
    released: number;
    handed: number;
    never: number;
    open: number;
    openRows: number;
    entriesReserved: number;
  }>(
    `select c.id, c.name, c.status, c.credits_reserved::int as reserved, c.credits_used::int as used,
            c.credits_released::int as released,
            coalesce(sum(m.parts) filter (where m.submitted_at is not null or m.status = 'unknown'), 0)::int as handed,
            coalesce(sum(m.parts) filter (where m.submitted_at is null and m.status in ('failed', 'opted_out', 'canceled', 'expired')), 0)::int as never,
            coalesce(sum(m.parts) filter (where m.status in ('queued', 'submitting')), 0)::int as open,
            count(m.id) filter (where m.status in ('queued', 'submitting'))::int as "openRows",
            (select coalesce(sum(e.reserved_delta), 0)::int from ledger_entries e
              where e.reference_type = 'campaign' and e.reference_id = c.id::text) as "entriesReserved"
       from campaigns c left join messages m on m.campaign_id = c.id
      where c.user_id = any($1::uuid[]) and c.status <> 'DRAFT'
      group by c.id`,
    [userIds],
  );
  for (const c of campaigns) {
    const name = `campaign "${c.name}" (${c.status})`;
    if (['COMPLETED', 'CANCELED', 'FAILED'].includes(c.status) && c.openRows > 0)
      problems.push(`${name}: ${c.openRows} rows still queued or submitting`);
    if (c.used + c.released + c.open !== c.reserved)
      problems.push(`${name}: used ${c.used} + released ${c.released} + open ${c.open} ≠ reserved ${c.reserved}`);
    if (c.used !== c.handed) problems.push(`${name}: used ${c.used} ≠ parts handed to the carrier ${c.handed}`);
    if (c.released !== c.never) problems.push(`${name}: released ${c.released} ≠ parts never handed over ${c.never}`);
    if (c.entriesReserved !== c.open)
      problems.push(`${name}: its ledger entries hold ${c.entriesReserved} reserved, its open rows ${c.open}`);
  }
  const balances = await q<{ userId: string; type: string; available: number; reserved: number; a: number; r: number }>(
    `select b.user_id as "userId", b.type, b.available::int as available, b.reserved::int as reserved,
            coalesce((select sum(amount) from ledger_entries e where e.user_id = b.user_id and e.type = b.type), 0)::int as a,
            coalesce((select sum(reserved_delta) from ledger_entries e where e.user_id = b.user_id and e.type = b.type), 0)::int as r
       from credit_balances b where b.user_id = any($1::uuid[])`,
    [userIds],
  );
  for (const b of balances) {
    if (b.a !== b.available || b.r !== b.reserved)
      problems.push(
        `user ${b.userId} ${b.type}: ledger says available ${b.a} reserved ${b.r}, balance ${b.available}/${b.reserved}`,
      );
  }
  return problems;
}
