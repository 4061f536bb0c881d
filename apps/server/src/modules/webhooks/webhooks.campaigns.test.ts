import { describe, expect, it } from 'vitest';
import { makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { injectAs } from '../../../test/http.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import {
  campaignRow,
  campaignsUser,
  dispatchJobsQueued,
  importList,
  mobile,
  smsCampaign,
} from '../campaigns/campaigns.test-support.ts';
import { openServerWithReceiver, type Receiver, subscribeReceiver } from './webhooks.test-support.ts';

/** A campaign's moves reach the customer as `campaign.status`, its recipients' steps as `message.status`. */
describe(`campaign webhooks (${dbKind})`, () => {
  let server: RunningServer;
  let receiver: Receiver;
  openServerWithReceiver((opened) => ({ server, receiver } = opened));

  const ofType = (type: string) => receiver.received.filter((w) => w.payload.type === type);

  type StatusEvent = {
    campaignId: string;
    status: string;
    counts: { total: number; sent: number; delivered: number; failed: number; pending: number };
  };
  /** The `campaign.status` events received for one campaign, in arrival order. */
  const statusEventsOf = (id: string) =>
    ofType('campaign.status')
      .map((w) => w.payload.data as StatusEvent)
      .filter((d) => d.campaignId === id);
  // Up to four deliveries to an endpoint at once: they may arrive in any order.
  const statusesOf = (id: string) =>
    statusEventsOf(id)
      .map((d) => d.status)
      .sort();
  /** Waits (30 s at most) until `enough` holds, then half a second more: nothing further is on its way. */
  async function receivedWhen(enough: () => boolean): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !enough()) await new Promise((resolve) => setTimeout(resolve, 25));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  it('reports started and completed with counts, and each recipient delivered with the campaign id', async () => {
    const { user, api: c } = await campaignsUser(server, 100);
    await subscribeReceiver(server, user.token, receiver, ['campaign.status', 'message.status']);
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

  it('reports each pause, resume and cancel once, by the user or an administrator, with counts', async () => {
    const { user, api: c } = await campaignsUser(server, 100);
    await subscribeReceiver(server, user.token, receiver, ['campaign.status']);
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const asAdmin = async (id: string, move: 'pause' | 'cancel') => {
      const res = await injectAs(server, admin.token, { method: 'POST', url: `/api/v1/admin/campaigns/${id}/${move}` });
      expect(res.statusCode, res.body).toBe(200);
    };
    // One message a second: still running through every move below.
    const campaign = async (name: string) => {
      const list = await importList(
        server,
        user.token,
        Array.from({ length: 30 }, () => ({ phone: mobile() })),
      );
      return c.create({ name, channel: 'sms_short', listIds: [list], content: { text: 'Oi!' }, maxRate: 1 });
    };
    const a = await campaign('Lenta A');
    const b = await campaign('Lenta B');
    await c.move(a, 'start');
    await c.move(a, 'pause');
    await c.move(a, 'resume');
    await asAdmin(a, 'pause');
    await c.move(a, 'resume');
    await c.move(a, 'cancel');
    await c.move(b, 'start');
    await asAdmin(b, 'cancel');

    // Nothing more on its way: exactly one event per move.
    await receivedWhen(() => statusEventsOf(a).length + statusEventsOf(b).length >= 8);
    // A resume reports `started` again (the customer's statuses: started, paused, completed, canceled).
    expect(statusesOf(a)).toEqual(['canceled', 'paused', 'paused', 'started', 'started', 'started']);
    expect(statusesOf(b)).toEqual(['canceled', 'started']);
    for (const d of [...statusEventsOf(a), ...statusEventsOf(b)]) {
      expect(d.counts).toEqual({
        total: 30,
        sent: expect.any(Number),
        delivered: expect.any(Number),
        failed: 0,
        pending: expect.any(Number),
      });
      expect(d.counts.sent + d.counts.delivered + d.counts.pending).toBeLessThanOrEqual(30);
    }
    // Canceled: nothing queued any more (only what a loop was handing over at that instant).
    for (const id of [a, b]) {
      const canceled = statusEventsOf(id).find((d) => d.status === 'canceled')!;
      expect(canceled.counts.pending).toBeLessThan(5);
    }
    expect(receiver.received.every((w) => w.verifiedBy >= 0)).toBe(true);
  }, 120_000);

  it('reports a pause by a failing carrier once, with its reason cut to what the screen shows', async () => {
    const { user, api: c } = await campaignsUser(server, 100);
    await subscribeReceiver(server, user.token, receiver, ['campaign.status']);
    const list = await importList(
      server,
      user.token,
      Array.from({ length: 20 }, () => ({ phone: mobile() })),
    );
    // One message a second: still running when the carrier is declared failing.
    const id = await c.create({ ...smsCampaign('Operadora', list, 'Oi!'), maxRate: 1 });
    await c.move(id, 'start');
    // What the dispatcher passes: the carrier's code and its own words, which can run long.
    const detail = `SMPP_SUBMIT_0x00000045: ${'a carrier that explains itself at length; '.repeat(20)}`;
    expect(detail.length).toBeGreaterThan(500);
    await server.modules.campaigns.pauseForProvider(id, detail);
    // A campaign already paused is not paused (nor reported) again.
    await server.modules.campaigns.pauseForProvider(id, 'SMPP_SUBMIT_0x00000058: again');
    const paused = await c.get(id);
    expect(paused).toMatchObject({
      status: 'PAUSED',
      statusReason: 'PROVIDER_FAILING',
      statusDetail: detail.slice(0, 500),
    });

    await receivedWhen(() => statusEventsOf(id).length >= 2);
    expect(statusesOf(id)).toEqual(['paused', 'started']);

    // Halted at once: after the pause nothing more than the one message on the wire reaches the carrier.
    const handed = (x: { counts: { queued: number; submitting: number } }) =>
      20 - x.counts.queued - x.counts.submitting;
    const atPause = await c.get(id);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const later = await c.get(id);
    expect(handed(later) - handed(atPause)).toBeLessThanOrEqual(1);
    expect(later.counts.queued).toBeGreaterThan(10);
  }, 60_000);

  it('reports a scheduled campaign started when its time comes; a start that lost the race with a cancel does nothing', async () => {
    const { user, api: c } = await campaignsUser(server, 100);
    await subscribeReceiver(server, user.token, receiver, ['campaign.status']);
    const scheduled = async (name: string) => {
      const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }]);
      const id = await c.create(smsCampaign(name, list, 'Oi!'));
      const at = new Date(Date.now() + 3_600_000).toISOString();
      const res = await c.call('POST', `/api/v1/campaigns/${id}/start`, { mode: 'schedule', schedule: at });
      expect(res.statusCode, res.body).toBe(200);
      return { id, row: await campaignRow(server, id) };
    };
    // Its time came: the supervisor starts it (as it does for every due row it read).
    const due = await scheduled('Agendada');
    await server.modules.campaigns.startScheduled(due.row);
    expect(await dispatchJobsQueued(server.db, due.id)).toBeGreaterThan(0);
    expect(await c.waitFor(due.id)).toMatchObject({ status: 'COMPLETED', counts: { delivered: 2 } });

    // The supervisor read it while it was SCHEDULED; the user canceled it before the start committed.
    const raced = await scheduled('Cancelada a tempo');
    await c.move(raced.id, 'cancel');
    await server.modules.campaigns.startScheduled(raced.row);
    expect(await c.get(raced.id)).toMatchObject({
      status: 'CANCELED',
      startedAt: null,
      counts: { sent: 0, delivered: 0 },
    });
    expect(await dispatchJobsQueued(server.db, raced.id)).toBe(0);

    await receivedWhen(() => statusesOf(due.id).length >= 2 && statusesOf(raced.id).length >= 1);
    expect(statusesOf(due.id)).toEqual(['completed', 'started']);
    expect(statusesOf(raced.id)).toEqual(['canceled']);
  }, 60_000);
});
