/**
 * The carriers and the checks of the chaos test (chaos.test.ts): the four simulators live in the
 * test process, so they outlive every SIGKILL of Ecoa as real carriers would, and count what each
 * number received; a seeded generator picks the test's moves, its seed printed so a failure can be
 * replayed (`CHAOS_SEED=… npx vitest run apps/server/test/chaos.test.ts`).
 */
import type { Campaign, Channel, CreateCampaignRequest } from '@ecoa/shared';
import { startRcsSimulator } from '../src/modules/channels/providers/rcs/rcs.simulator.ts';
import { startSmscSimulator } from '../src/modules/channels/providers/smpp/index.ts';
import { seededRandom } from '../src/modules/channels/providers/smpp/simulator/options.ts';
import { startVoiceSimulator } from '../src/modules/channels/providers/voice/index.ts';
import {
  startWhatsAppSimulator,
  whatsAppSimulatorEnv,
} from '../src/modules/channels/providers/whatsapp/whatsapp.simulator.ts';

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
    ...whatsAppSimulatorEnv(whatsapp),
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
    // Voice paced slowly: a pause or cancel lands mid-campaign, between calls.
    VOICE_CALLS_PER_SECOND: '1',
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

/** The test's moves from its seed: the simulators' own seeded generator (mulberry32). */
export const seeded = seededRandom;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type Plan = {
  name: string;
  channel: Channel;
  size: number;
  parts: number;
  content: CreateCampaignRequest['content'];
};

export type Tracked = Plan & {
  id: string;
  phones: string[];
  /** Paused or canceled by the test: what the carriers had at the answer + one window, and since when. */
  frozen?: { why: string; answeredAt: number; baseline?: number };
  canceled?: boolean;
};

export const FINAL = ['COMPLETED', 'CANCELED', 'FAILED'];

/**
 * What a round found wrong with one campaign, as sentences: anything the carriers took after its
 * pause or cancel was answered (+ one window), anybody who received more than once, claimed rows
 * left in a paused or ended campaign, credits that do not add up; with `final`, a campaign not ended.
 */
export function campaignProblems(
  t: Tracked,
  campaign: Campaign,
  carriers: Carriers,
  o: { final: boolean; deadClaimsPending: boolean; windowMs: number },
): string[] {
  const found: string[] = [];
  const handed = carriers.handedOver(t.phones);
  if (t.frozen?.baseline !== undefined && handed !== t.frozen.baseline) {
    found.push(
      `${t.name}: the carriers got ${handed - t.frozen.baseline} more after the ${t.frozen.why} answered ${Date.now() - t.frozen.answeredAt} ms ago (+${o.windowMs} ms window)`,
    );
    // The next round reports only what comes after this one.
    t.frozen.baseline = handed;
  }
  for (const phone of t.phones) {
    const r = carriers.received(phone);
    const got = r.sms + r.whatsapp + r.rcs + r.calls;
    if (got > t.parts) found.push(`${t.name}: ${phone} received ${got} (${JSON.stringify(r)}), at most ${t.parts}`);
  }
  const { counts, credits } = campaign;
  const open = counts.queued + counts.submitting;
  const settledSince = t.frozen?.baseline !== undefined;
  if (
    (FINAL.includes(campaign.status) || (campaign.status === 'PAUSED' && settledSince)) &&
    counts.submitting > 0 &&
    !o.deadClaimsPending
  )
    found.push(`${t.name} (${campaign.status}): ${counts.submitting} rows still submitting`);
  if (FINAL.includes(campaign.status) && counts.queued > 0)
    found.push(`${t.name} (${campaign.status}): ${counts.queued} rows still queued`);
  if (FINAL.includes(campaign.status) || (campaign.status === 'PAUSED' && settledSince)) {
    if (credits.used + credits.released + open * t.parts !== credits.reserved)
      found.push(
        `${t.name} (${campaign.status}): used ${credits.used} + released ${credits.released} + open ${open}×${t.parts} ≠ reserved ${credits.reserved}`,
      );
  }
  if (t.canceled && !FINAL.includes(campaign.status)) found.push(`${t.name}: canceled, yet ${campaign.status}`);
  if (o.final && !FINAL.includes(campaign.status)) found.push(`${t.name}: stuck ${campaign.status}`);
  return found;
}
