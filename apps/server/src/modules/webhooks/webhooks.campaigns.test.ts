import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../../../test/http.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { campaignsUser, importList, mobile, startCampaignsServer } from '../campaigns/campaigns.test-support.ts';
import { type Receiver, startReceiver } from './webhooks.test-support.ts';

/** A campaign's moves reach the customer as `campaign.status`, its recipients' steps as `message.status`. */
describe(`campaign webhooks (${dbKind})`, () => {
  let server: RunningServer;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startCampaignsServer();
    receiver = await startReceiver({ strictTimestamp: true });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const ofType = (type: string) => receiver.received.filter((w) => w.payload.type === type);

  it('reports started and completed with counts, and each recipient delivered with the campaign id', async () => {
    const { user, api: c } = await campaignsUser(server, 100);
    const created = await asUser(
      server,
      user.token,
    )({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      payload: { url: receiver.url, events: ['campaign.status', 'message.status'] },
    });
    receiver.secrets = [created.json().secret];
    const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }, { phone: mobile() }]);
    const id = await c.create({ name: 'Aviso', channel: 'sms_short', listIds: [list], content: { text: 'Oi!' } });
    await c.move(id, 'start');
    await c.waitFor(id);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (ofType('campaign.status').length < 2 || ofType('message.status').length < 6)) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(ofType('campaign.status').map((w) => w.payload.data)).toEqual([
      expect.objectContaining({
        campaignId: id,
        name: 'Aviso',
        status: 'started',
        counts: expect.objectContaining({ total: 3, pending: 3 }),
      }),
      // Completed once every recipient was handed over; receipts may still be on their way.
      expect.objectContaining({
        campaignId: id,
        status: 'completed',
        counts: expect.objectContaining({ total: 3, failed: 0, pending: 0 }),
      }),
    ]);
    const { counts } = ofType('campaign.status')[1]!.payload.data as { counts: { sent: number; delivered: number } };
    expect(counts.sent + counts.delivered).toBe(3);
    const statuses = ofType('message.status').map((w) => w.payload.data);
    expect(statuses.filter((d) => d.status === 'delivered')).toHaveLength(3);
    expect(statuses.every((d) => d.campaignId === id)).toBe(true);
    expect(receiver.received.every((w) => w.verifiedBy === 0)).toBe(true);
  }, 90_000);
});
