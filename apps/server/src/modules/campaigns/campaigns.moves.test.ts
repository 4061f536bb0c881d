import { afterAll, describe, expect, it } from 'vitest';
import { bearer, makeAdmin, signUpAndSignIn } from '../../../test/factories.test-support.ts';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { asUser } from '../../../test/http.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import { createManualClock } from '../../platform/clock/clock.ts';
import type { RunningServer } from '../../server.ts';
import { credits } from '../channels/channels.test-support.ts';
import { type Receiver, startReceiver } from '../webhooks/webhooks.test-support.ts';
import { reserveForCampaign } from './campaigns.lifecycle.ts';
import { MAX_LOOPS_PER_CAMPAIGN } from './campaigns.service-deps.ts';
import {
  campaignsUser,
  dispatchJobsQueued,
  freshMobiles,
  importList,
  mobile,
  smsCampaign,
  startCampaignsServer,
} from './campaigns.test-support.ts';

/**
 * A campaign's moves and their refusals (campaigns.lifecycle.ts), before its window opens: no
 * carrier traffic, every figure read back through the API, the ledger and the audit log.
 */
const MONDAY_8AM = (() => {
  const day = new Date(Date.now() + 7 * 86_400_000);
  day.setUTCHours(11, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day;
})();
const OPENS_AT_NINE = { days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' };

describe(`campaign moves and their refusals (${dbKind})`, () => {
  const clock = createManualClock(MONDAY_8AM);
  let server: RunningServer;
  let receiver: Receiver;
  openBeforeAll(
    async () => {
      receiver = await startReceiver();
      return startCampaignsServer({ clock });
    },
    (opened) => (server = opened),
  );
  afterAll(async () => {
    await receiver?.close();
  });

  const dispatchJobs = (id: string) => dispatchJobsQueued(server.db, id);

  async function closedCampaign(count = 3) {
    const { user, api: c } = await campaignsUser(server, 20);
    const list = await importList(server, user.token, freshMobiles(count));
    const id = await c.create({ ...smsCampaign('Fechada', list), window: OPENS_AT_NINE });
    return { user, c, id };
  }
  /** The customer's integration hears of each move (`campaign.status`, in the move's transaction). */
  async function listen(token: string) {
    const endpoint = await asUser(
      server,
      token,
    )({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      payload: { url: receiver.url, events: ['campaign.status'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
  }
  const told = async (userId: string) =>
    (
      await server.db.executeSql(
        "select payload->'data'->>'status' as status, (payload->'data'->'counts'->>'pending')::int as pending from webhook_events where user_id = $1 and type = 'campaign.status' order by payload->'data'->>'at'",
        [userId],
      )
    ).rows as { status: string; pending: number }[];
  const refusal = async (res: { statusCode: number; json(): { code: string } }) => [res.statusCode, res.json().code];

  it("each move refused from the states it may not leave, with its code; another user's campaign is not found", async () => {
    clock.set(MONDAY_8AM);
    const { user, c, id } = await closedCampaign();
    await listen(user.token);
    const stranger = (await campaignsUser(server, 0)).api;
    for (const move of ['start', 'pause', 'resume', 'cancel'])
      expect(await refusal(await stranger.call('POST', `/api/v1/campaigns/${id}/${move}`))).toEqual([
        404,
        'CAMPAIGN_NOT_FOUND',
      ]);
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/pause`))).toEqual([409, 'CAMPAIGN_NOT_RUNNING']);
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/resume`))).toEqual([409, 'CAMPAIGN_NOT_PAUSED']);
    expect(await c.move(id, 'start')).toMatchObject({ status: 'RUNNING', startedAt: MONDAY_8AM.toISOString() });
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/start`))).toEqual([
      409,
      'CAMPAIGN_ALREADY_STARTED',
    ]);
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/resume`))).toEqual([409, 'CAMPAIGN_NOT_PAUSED']);
    expect(await c.move(id, 'pause')).toMatchObject({ status: 'PAUSED', statusReason: null });
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/pause`))).toEqual([409, 'CAMPAIGN_NOT_RUNNING']);
    expect(await c.move(id, 'cancel')).toMatchObject({ status: 'CANCELED', counts: { canceled: 3 } });
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/cancel`))).toEqual([409, 'CAMPAIGN_FINISHED']);
    expect(await refusal(await c.call('POST', `/api/v1/campaigns/${id}/resume`))).toEqual([409, 'CAMPAIGN_NOT_PAUSED']);
    expect(await told(user.id)).toEqual([
      { status: 'started', pending: 3 },
      { status: 'paused', pending: 3 },
      { status: 'canceled', pending: 0 },
    ]);
    // A user's own moves leave no audit entry (that is for administrators').
    const { rows } = await server.db.executeSql('select count(*)::int as n from audit_log where subject_id = $1', [id]);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('cancels from every state it may leave: a draft (nothing to release), a scheduled and a running campaign (all released)', async () => {
    clock.set(MONDAY_8AM);
    const { user, c, id: draft } = await closedCampaign(2);
    expect(await c.move(draft, 'cancel')).toMatchObject({ status: 'CANCELED', credits: { reserved: 0, released: 0 } });
    const { rows: entries } = await server.db.executeSql(
      "select count(*)::int as n from ledger_entries where reference_type = 'campaign' and reference_id = $1",
      [draft],
    );
    expect(entries).toEqual([{ n: 0 }]);
    const list = await importList(server, user.token, freshMobiles(3));
    const scheduled = await c.create({ ...smsCampaign('Agendada', list), window: OPENS_AT_NINE });
    const at = new Date(MONDAY_8AM.getTime() + 10 * 60_000).toISOString();
    const res = await c.call('POST', `/api/v1/campaigns/${scheduled}/start`, { mode: 'schedule', schedule: at });
    expect(res.json()).toMatchObject({ status: 'SCHEDULED' });
    expect(await c.move(scheduled, 'cancel')).toMatchObject({
      status: 'CANCELED',
      counts: { canceled: 3, queued: 0 },
      credits: { reserved: 3, released: 3 },
    });
    const running = await c.create({ ...smsCampaign('Rodando', list), window: OPENS_AT_NINE });
    expect(await c.move(running, 'start')).toMatchObject({ status: 'RUNNING' });
    expect(await c.move(running, 'cancel')).toMatchObject({
      status: 'CANCELED',
      counts: { canceled: 3, queued: 0 },
      credits: { reserved: 3, released: 3 },
    });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 20, reserved: 0 });
  });

  it('a start keeps who was left out and why, and refuses an audience left with nobody', async () => {
    clock.set(MONDAY_8AM);
    const { user, api: c } = await campaignsUser(server, 20);
    const [shared, optedOut] = [mobile(), mobile()];
    // The same phone in two lists counts once; a landline is not sent an SMS.
    const lists = [
      await importList(server, user.token, [
        { phone: shared },
        { phone: optedOut },
        { phone: '+551133334444' },
        { phone: mobile() },
      ]),
      await importList(server, user.token, [{ phone: shared }], 'B'),
    ];
    expect((await c.call('POST', '/api/v1/opt-outs', { phones: [optedOut] })).statusCode).toBeLessThan(300);
    const id = await c.create({ ...smsCampaign('Excluídos', lists[0]!), listIds: lists, window: OPENS_AT_NINE });
    expect(await c.move(id, 'start')).toMatchObject({
      status: 'RUNNING',
      total: 2,
      credits: { reserved: 2, used: 0, released: 0 },
    });
    // Kept with the campaign for its report: the audience as it was at the start.
    const { rows } = await server.db.executeSql('select excluded from campaigns where id = $1', [id]);
    expect(rows).toEqual([{ excluded: { optedOut: 1, duplicates: 1, landlines: 1 } }]);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 18, reserved: 2 });

    // One list (counted without `distinct`: a list holds a phone once); an opted-out landline is
    // counted as opted out only.
    const optedOutLandline = '+551133336666';
    expect((await c.call('POST', '/api/v1/opt-outs', { phones: [optedOutLandline] })).statusCode).toBeLessThan(300);
    const single = await importList(server, user.token, [
      { phone: mobile() },
      { phone: optedOut },
      { phone: optedOutLandline },
      { phone: '+551133337777' },
      { phone: mobile() },
    ]);
    // The same list named twice is kept once: one audience, not a list "that no longer exists".
    const one = await c.create({
      ...smsCampaign('Uma lista', single),
      listIds: [single, single],
      window: OPENS_AT_NINE,
    });
    expect(await c.estimate(one)).toMatchObject({
      recipients: 2,
      excluded: { optedOut: 2, duplicates: 0, landlines: 1 },
      problems: [],
    });
    expect((await c.get(one)).listIds).toEqual([single]);

    const fixed = await importList(server, user.token, [{ phone: '+551133335555' }]);
    const nobody = await c.create({ ...smsCampaign('Ninguém', fixed), window: OPENS_AT_NINE });
    const res = await c.call('POST', `/api/v1/campaigns/${nobody}/start`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'NO_RECIPIENTS' });
    expect(await c.get(nobody)).toMatchObject({ status: 'DRAFT', credits: { reserved: 0 } });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 18, reserved: 2 });
  });

  it('a scheduled campaign paused and resumed before its time waits again; resumed after it, it runs from then', async () => {
    clock.set(MONDAY_8AM);
    const { user, c, id } = await closedCampaign(2);
    await listen(user.token);
    const at = new Date(MONDAY_8AM.getTime() + 10 * 60_000);
    const started = await c.call('POST', `/api/v1/campaigns/${id}/start`, {
      mode: 'schedule',
      schedule: at.toISOString(),
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'SCHEDULED', startedAt: null, credits: { reserved: 2 } });
    expect(await c.move(id, 'pause')).toMatchObject({ status: 'PAUSED' });
    expect(await c.move(id, 'resume')).toMatchObject({ status: 'SCHEDULED', startedAt: null, statusReason: null });
    expect(await c.move(id, 'pause')).toMatchObject({ status: 'PAUSED' });
    // Waiting for its time, it has no dispatch job: the supervisor starts it when its time comes.
    expect(await dispatchJobs(id)).toBe(0);
    const later = new Date(at.getTime() + 60_000);
    clock.set(later);
    expect(await c.move(id, 'resume')).toMatchObject({ status: 'RUNNING', startedAt: later.toISOString() });
    expect(await dispatchJobs(id)).toBe(MAX_LOOPS_PER_CAMPAIGN);
    // Started only when it runs: not when scheduled, nor when resumed to wait again.
    expect((await told(user.id)).map((t) => t.status)).toEqual(['paused', 'paused', 'started']);
    clock.set(MONDAY_8AM);
  });

  it('two starts at once (a double click): one starts it, the other is refused, and the credits are reserved once', async () => {
    const { user, c, id } = await closedCampaign(3);
    const [a, b] = await Promise.all([
      c.call('POST', `/api/v1/campaigns/${id}/start`),
      c.call('POST', `/api/v1/campaigns/${id}/start`),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json()).toMatchObject({ code: 'CAMPAIGN_ALREADY_STARTED' });
    expect(await c.get(id)).toMatchObject({ status: 'RUNNING', total: 3, credits: { reserved: 3 } });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 17, reserved: 3 });
    const { rows } = await server.db.executeSql('select count(*)::int as n from messages where campaign_id = $1', [id]);
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('a start queues one dispatch job per loop a process may run, however few processes are alive', async () => {
    const { c, id } = await closedCampaign();
    await c.move(id, 'start');
    expect(await dispatchJobs(id)).toBe(MAX_LOOPS_PER_CAMPAIGN);
  });

  it('a reserve refused for another reason than the balance keeps its own error: it is not reported as a shortfall', async () => {
    const { user } = await closedCampaign();
    const reserve = (amount: number) =>
      server.db.db.transaction((tx) =>
        reserveForCampaign(server.modules.ledger, {
          userId: user.id,
          type: 'SMSSHORT',
          amount,
          campaignId: crypto.randomUUID(),
          tx,
        }),
      );
    await expect(reserve(0)).rejects.toMatchObject({ code: 'INVALID_AMOUNT' });
    await expect(reserve(21)).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { type: 'SMSSHORT', available: 20, requested: 21, shortfall: 1 },
    });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 20, reserved: 0 });
  });

  it("an administrator's pause says so, and both moves are audited with where the campaign was", async () => {
    clock.set(MONDAY_8AM);
    const { user, c, id } = await closedCampaign(4);
    await c.move(id, 'start');
    const admin = await signUpAndSignIn(server);
    await makeAdmin(server, admin.user.id);
    const as = (move: string, campaignId = id) =>
      server.app.inject({
        method: 'POST',
        url: `/api/v1/admin/campaigns/${campaignId}/${move}`,
        headers: bearer(admin.token),
      });
    const paused = await as('pause');
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ status: 'PAUSED', statusReason: 'PAUSED_BY_ADMIN' });
    const canceled = await as('cancel');
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({
      status: 'CANCELED',
      counts: { canceled: 4, queued: 0 },
      credits: { reserved: 4, used: 0, released: 4 },
    });
    expect(canceled.json().finishedAt).toBe(MONDAY_8AM.toISOString());
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 20, reserved: 0 });
    const { rows } = await server.db.executeSql(
      'select actor_id, action, changes from audit_log where subject_id = $1 order by created_at',
      [id],
    );
    expect(rows).toEqual([
      { actor_id: admin.user.id, action: 'campaign.pause', changes: { status: { from: 'RUNNING', to: 'PAUSED' } } },
      { actor_id: admin.user.id, action: 'campaign.cancel', changes: { status: { from: 'PAUSED', to: 'CANCELED' } } },
    ]);
    expect(await refusal(await as('cancel'))).toEqual([409, 'CAMPAIGN_FINISHED']);
    expect(await refusal(await as('pause', crypto.randomUUID()))).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
  });
});
