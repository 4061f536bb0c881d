import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../../../test/http.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import {
  type ChannelsUser,
  sendAndWait,
  startChannelsServer,
  userWithCredits,
} from '../channels/channels.test-support.ts';
import { type Receiver, startReceiver } from './webhooks.test-support.ts';

/**
 * The owners publish where their changes happen: a test send's statuses (the receipts' batches),
 * a reply and an opt-out by reply (the SMSC simulator's MO), the balance crossing its threshold
 * (the ledger) — each reaching a receiver signed, through the running delivery loop.
 */
describe(`webhook events from their owners (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startChannelsServer();
    user = await userWithCredits(server);
    receiver = await startReceiver({ strictTimestamp: true });
    const as = asUser(server, user.token);
    const created = await as({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      payload: { url: receiver.url, events: ['message.status', 'message.reply', 'message.opt_out', 'balance.low'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    receiver.secrets = [created.json().secret];
    const thresholds = await as({
      method: 'PUT',
      url: '/api/v1/balance-alerts',
      payload: { thresholds: { SMSSHORT: 20 } },
    });
    expect(thresholds.statusCode).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const ofType = (type: string) => receiver.received.filter((w) => w.payload.type === type);

  it('a test send reports sent and delivered, and its reservation crosses the balance threshold once', async () => {
    const message = await sendAndWait(server, user, { channel: 'sms_short', to: '(11) 98765-4321', text: 'Oi' });
    expect(message.status).toBe('delivered');
    await until(() => ofType('message.status').length >= 2 && ofType('balance.low').length >= 1);
    // Up to four deliveries to an endpoint at once: the two events may arrive in either order.
    const rank = (status: unknown) => ['sent', 'delivered'].indexOf(String(status));
    const statuses = ofType('message.status')
      .map((w) => w.payload.data)
      .sort((a, b) => rank(a.status) - rank(b.status));
    expect(statuses).toEqual([
      expect.objectContaining({
        messageId: message.id,
        status: 'sent',
        channel: 'sms_short',
        to: '+5511987654321',
        parts: 1,
      }),
      expect.objectContaining({ messageId: message.id, status: 'delivered', reason: null, campaignId: null }),
    ]);
    expect(ofType('balance.low').map((w) => w.payload.data)).toEqual([
      expect.objectContaining({ creditType: 'SMSSHORT', balance: 19, threshold: 20 }),
    ]);
    expect(receiver.received.every((w) => w.verifiedBy === 0)).toBe(true);

    // Already below: the next send does not fire it again.
    await sendAndWait(server, user, { channel: 'sms_short', to: '(11) 98765-4321', text: 'Oi de novo' });
    await until(() => ofType('message.status').length >= 4);
    expect(ofType('balance.low')).toHaveLength(1);
    expect(new Set(receiver.received.map((w) => w.id)).size).toBe(receiver.received.length);
  });

  it('a reply reports the message it answers, and an opt-out word reports the opt-out', async () => {
    const [last] = ofType('message.status').slice(-1);
    const answered = last!.payload.data.messageId;
    await server.providers.simulators.smsc!.sendMo({ from: '5511987654321', to: '28888', text: 'Quero saber mais' });
    await until(() => ofType('message.reply').length >= 1);
    expect(ofType('message.reply')[0]!.payload.data).toMatchObject({
      from: '+5511987654321',
      channel: 'sms_short',
      text: 'Quero saber mais',
      inReplyTo: { messageId: answered, campaignId: null },
    });
    expect(ofType('message.opt_out')).toHaveLength(0);
    await server.providers.simulators.smsc!.sendMo({ from: '5511987654321', to: '28888', text: 'SAIR' });
    // Both events of the second reply are delivered, in either order.
    await until(() => ofType('message.opt_out').length >= 1 && ofType('message.reply').length >= 2);
    expect(ofType('message.opt_out')[0]!.payload.data).toMatchObject({ phone: '+5511987654321', source: 'reply' });
    expect(ofType('message.reply')).toHaveLength(2);
  });

  it('a test send the carrier refuses reports failed with its reason, once', async () => {
    const smsc = server.providers.simulators.smsc!;
    smsc.setOptions({ rejectStatus: 0x0b });
    try {
      const message = await sendAndWait(server, user, { channel: 'sms_short', to: '(11) 98765-4322', text: 'Oi' });
      expect(message).toMatchObject({ status: 'failed', reason: 'SMPP_0x0000000B' });
      const ofMessage = () => ofType('message.status').filter((w) => w.payload.data.messageId === message.id);
      await until(() => ofMessage().length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ofMessage().map((w) => w.payload.data)).toEqual([
        expect.objectContaining({
          status: 'failed',
          reason: 'SMPP_0x0000000B',
          to: '+5511987654322',
          campaignId: null,
        }),
      ]);
    } finally {
      smsc.setOptions({ rejectStatus: null });
    }
  });
});

async function until(done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
