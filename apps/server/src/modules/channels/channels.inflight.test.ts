import type { Channel } from '@ecoa/shared';
import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { startUraRig, type UraRig, WELL_BEHAVED } from './channels.test-support.ts';
import type { InflightBatch } from './inflight-submits.ts';
import type { OutboundContent } from './provider.ts';
import { signWhatsAppBody, statusNotification } from './providers/whatsapp/whatsapp.wire.ts';

/**
 * A receipt for a submit whose batch is still being sent rides with that batch, but a carrier
 * waits ~15 s at most for its answer (Twilio then plays an application error to the caller): at
 * voice pace a batch takes minutes. Here the test holds the batch itself, as a slow carrier for
 * the rest of it would, and each carrier must have its hook.answers meanwhile; once the batch
 * settles (as the campaign dispatcher settles it), the message ends with its receipts applied.
 */
describe(`receipts for a submit whose batch is slow to settle (${dbKind})`, () => {
  let server: RunningServer;
  let repo: UraRig['repo'];
  let userId: string;
  let hook: UraRig['hook'];
  openBeforeAll(
    () => startUraRig({ ...WELL_BEHAVED, voice: { ...WELL_BEHAVED.voice, callMs: 100 } }),
    (opened) => ({ server, repo, userId, hook } = opened),
  );

  type Held = { id: string; provider: string; ids: string[]; batch: InflightBatch };

  /** A message handed to its carrier inside a batch that nobody settles until the test does. */
  async function heldSubmit(channel: Channel, toPhone: string, content: OutboundContent): Promise<Held> {
    const provider = server.providers.registry.forChannel(channel);
    const id = await repo.createMessage(
      { userId, channel, toPhone, parts: 1, provider: provider.name, content },
      new Date(),
    );
    expect(await repo.markSubmitting(id, new Date())).toBe(true);
    const batch = server.modules.channels.inflightBatch();
    const { providerMessageIds } = await provider.submit({ id, channel, to: toPhone, content });
    batch.track(provider.name, providerMessageIds);
    return { id, provider: provider.name, ids: providerMessageIds, batch };
  }

  /** The dispatcher's settle: the ids stored with the receipts that rode along, then their follow-ups. */
  async function settle(held: Held): Promise<void> {
    const arrived = held.batch.take();
    const stored = await server.db.db.transaction((tx) =>
      repo.recordSubmittedBatch(
        [{ messageId: held.id, provider: held.provider, providerIds: held.ids }],
        new Date(),
        arrived,
        tx,
      ),
    );
    held.batch.settled(stored.arrived);
    for (const { event, messageId } of stored.followUps) await server.modules.channels.afterReceipt(event, messageId);
  }

  /** Polls `check` while the batch is held (a failure deadline, generous for a loaded machine: held forever, nothing is answered). */
  async function answeredWhileHeld(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not answered while its batch was held`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  const status = async (id: string) => (await repo.findById(id))?.status;
  const parked = async (providerMessageId: string) =>
    (
      await server.db.executeSql('select count(*)::int as n from early_receipts where provider_message_id = $1', [
        providerMessageId,
      ])
    ).rows[0] as { n: number };

  it('SMPP: the deliver_sm receipt is answered; the settle applies it', async () => {
    const smsc = server.providers.simulators.smsc!;
    const before = smsc.counters().receiptsSent;
    const held = await heldSubmit('sms_short', '+5511987650301', { kind: 'sms', text: 'segura o lote', flash: false });
    await answeredWhileHeld('deliver_sm', () => smsc.counters().receiptsSent > before);
    expect(await status(held.id)).toBe('submitting');
    expect(await parked(held.ids[0]!)).toEqual({ n: 1 });
    await settle(held);
    expect(await status(held.id)).toBe('delivered');
    expect(await parked(held.ids[0]!)).toEqual({ n: 0 });
  }, 60_000);

  it('WhatsApp and RCS: their status webhooks are answered; the settle applies them', async () => {
    const whatsapp = server.providers.simulators.whatsapp!;
    const rcs = server.providers.simulators.rcs!;
    const [wa, rb] = [whatsapp.counters().callbacks.delivered, rcs.counters().callbacks.delivered];
    const heldWa = await heldSubmit('whatsapp', '+5511987650302', {
      kind: 'whatsapp',
      template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana'] },
    });
    const heldRcs = await heldSubmit('rcs', '+5511987650303', { kind: 'rcs', text: 'segura o lote' });
    // WhatsApp posts `sent`, then `delivered`; RCS posts DELIVERED.
    await answeredWhileHeld('WhatsApp statuses', () => whatsapp.counters().callbacks.delivered >= wa + 2);
    await answeredWhileHeld('RCS event', () => rcs.counters().callbacks.delivered >= rb + 1);
    expect(whatsapp.counters().callbacks.failed + rcs.counters().callbacks.failed).toBe(0);
    await settle(heldWa);
    await settle(heldRcs);
    expect(await status(heldWa.id)).toBe('delivered');
    expect(await status(heldRcs.id)).toBe('delivered');
  }, 60_000);

  it('a WhatsApp webhook with several statuses for held batches waits one ride for all, not one each', async () => {
    const whatsapp = server.providers.simulators.whatsapp!;
    const held: Held[] = [];
    for (const n of [11, 12, 13, 14]) {
      held.push(
        await heldSubmit('whatsapp', `+55119876503${n}`, {
          kind: 'whatsapp',
          template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana'] },
        }),
      );
    }
    // Meta may put several statuses in one notification.
    const body = statusNotification({
      phoneNumberId: whatsapp.config.phoneNumberId,
      wamid: held[0]!.ids[0]!,
      status: 'read',
      timestamp: Math.floor(Date.now() / 1000) + 5,
      recipient: '5511987650311',
    });
    const value = body.entry[0]!.changes[0]!.value as unknown as { statuses: unknown[] };
    for (const h of held.slice(1)) value.statuses.push({ ...(value.statuses[0] as object), id: h.ids[0] });
    const raw = JSON.stringify(body);
    const res = await fetch(`${server.config.publicUrl}/api/webhooks/whatsapp/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signWhatsAppBody(whatsapp.config.appSecret, raw),
      },
      body: raw,
    });
    expect(res.status).toBe(200);
    // Awaited together, the four rode and were stored together, in one transaction; handed over
    // one after another, each would have waited its own ride and been stored on its own.
    const { rows: stored } = await server.db.executeSql(
      "select count(*)::int as n, count(distinct xmin::text)::int as transactions from early_receipts where provider_message_id = any($1) and event->>'status' = 'read'",
      [held.map((h) => h.ids[0])],
    );
    expect(stored).toEqual([{ n: 4, transactions: 1 }]);
    for (const h of held) await settle(h);
    await answeredWhileHeld("the simulator's own statuses", async () => {
      for (const h of held) if ((await status(h.id)) !== 'delivered') return false;
      return true;
    });
    const { rows } = await server.db.executeSql(
      "select count(*)::int as n from message_events where status = 'read' and message_id = any($1)",
      [held.map((h) => h.id)],
    );
    expect(rows).toEqual([{ n: 4 }]);
  }, 60_000);

  it('voice URA: every status callback and the key press are answered, the call plays to its end; the settle applies them and posts the key', async () => {
    const voice = server.providers.simulators.voice!;
    const to = '+5511987650304';
    const refusedBefore = voice.counters().totals.callbacksRefused;
    const held = await heldSubmit('ura', to, {
      kind: 'ura',
      prompt: { tts: 'Tecle 1 para falar com a gente.' },
      options: ['1', '2'],
      integrationUrl: hook.url,
    });
    let ended = false;
    void voice.idle().then(() => {
      ended = true;
    });
    await answeredWhileHeld('the call', () => ended);
    const call = voice.counters().destinations[to]!;
    expect(call).toMatchObject({ digits: ['1'], outcomes: { completed: 1 }, problems: [] });
    expect(voice.counters().totals.callbacksRefused).toBe(refusedBefore);
    expect(await status(held.id)).toBe('submitting');
    await settle(held);
    expect(await status(held.id)).toBe('delivered');
    const { rows } = await server.db.executeSql(
      "select detail->>'digits' as digits from message_events where message_id = $1 and detail->>'digits' is not null",
      [held.id],
    );
    expect(rows).toEqual([{ digits: '1' }]);
    const deadline = Date.now() + 10_000;
    while (hook.answers.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hook.answers).toEqual([{ phone: to, digit: '1', campaignId: null }]);
  }, 60_000);
});
