import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { ERROR, INFO, openSupervisorRig, type SupervisorRig, WARN } from './campaigns.supervisor.test-support.ts';
import { MONDAY_8AM, MONDAY_930 } from './campaigns.test-support.ts';

const CUT_OFF_LOG = 'recipients cut off mid-send by a stopped process: unknown, not re-sent';
const ADOPTED_LOG = 'campaign with no dispatcher: work queued again';

/** The supervisor's passes with a manual clock, on a server whose own supervisor timer is off. */
// Each test builds and runs whole campaigns: at load 30 one took over 30 s, and its clock then misled the next.
describe('campaign supervisor', { timeout: 120_000 }, () => {
  let rig: SupervisorRig;
  openBeforeAll(openSupervisorRig, (opened) => (rig = opened));

  it('settles what a dead worker claimed as unknown, captures its credits, and leaves a live batch alone', async () => {
    const a = await rig.waitingCampaign(3);
    const b = await rig.waitingCampaign(2);
    expect(await rig.repo.claim(a.id, rig.deadWorker(), 2)).toHaveLength(2);
    expect(await rig.repo.claim(b.id, rig.workerId, 2)).toHaveLength(2);

    await rig.supervisor().pass();
    expect(await a.api.get(a.id)).toMatchObject({
      status: 'RUNNING',
      counts: { queued: 1, submitting: 0, unknown: 2, delivered: 0 },
      credits: { reserved: 3, used: 2, released: 0 },
      reasons: [{ reason: 'SUBMIT_INTERRUPTED', count: 2 }],
    });
    expect((await rig.server.modules.ledger.getBalances(a.user.id)).SMSSHORT).toEqual({ available: 7, reserved: 1 });
    expect(rig.logsOf(a.id, WARN)).toEqual([expect.objectContaining({ msg: CUT_OFF_LOG, recipients: 2 })]);
    // This process beats for the worker that holds B's batch: nothing of it is touched.
    expect(await b.api.get(b.id)).toMatchObject({
      status: 'RUNNING',
      counts: { submitting: 2, unknown: 0 },
      credits: { reserved: 2, used: 0 },
    });
    expect(rig.logsOf(b.id, WARN)).toEqual([]);

    // B's batch untouched for longer than any carrier call: cut off too, and B, with nothing left, ends.
    await rig.sql(`update messages set updated_at = now() - interval '11 minutes' where campaign_id = $1`, [b.id]);
    await rig.supervisor().pass();
    expect(await b.api.get(b.id)).toMatchObject({
      status: 'COMPLETED',
      counts: { submitting: 0, unknown: 2 },
      credits: { reserved: 2, used: 2, released: 0 },
    });
    expect(rig.logsOf(b.id, WARN)).toEqual([expect.objectContaining({ msg: CUT_OFF_LOG, recipients: 2 })]);
    // A's settled rows are not settled (nor paid) twice.
    expect((await a.api.get(a.id)).credits.used).toBe(2);
  });

  it('queues again a RUNNING campaign nobody works on once its window opens, not before, and only with work queued', async () => {
    const waiting = await rig.waitingCampaign(2);
    const allOut = await rig.waitingCampaign(1);
    // allOut's one recipient is in a live batch: nothing is queued for a new dispatcher to take.
    expect(await rig.repo.claim(allOut.id, rig.workerId, 1)).toHaveLength(1);
    const jobsBefore = await rig.dispatchJobs(waiting.id);
    const allOutJobs = await rig.dispatchJobs(allOut.id);

    await rig.supervisor().pass();
    expect(await rig.dispatchJobs(waiting.id)).toBe(jobsBefore);
    expect(await rig.heartbeatOf(waiting.id)).toBeNull();
    expect(rig.logsOf(waiting.id, INFO)).toEqual([]);

    rig.clock.set(MONDAY_930);
    await rig.supervisor().pass();
    expect(await rig.dispatchJobs(waiting.id)).toBeGreaterThan(jobsBefore);
    expect(await rig.heartbeatOf(waiting.id)).not.toBeNull();
    expect(rig.logsOf(waiting.id, INFO)).toEqual([expect.objectContaining({ msg: ADOPTED_LOG })]);
    expect(await waiting.api.waitFor(waiting.id)).toMatchObject({ status: 'COMPLETED', counts: { delivered: 2 } });

    expect(await rig.dispatchJobs(allOut.id)).toBe(allOutJobs);
    expect(await rig.heartbeatOf(allOut.id)).toBeNull();
    expect(rig.logsOf(allOut.id, INFO)).toEqual([]);
    expect((await allOut.api.get(allOut.id)).counts).toMatchObject({ submitting: 1 });
  });

  it('joins a campaign another live process is working on once its window opens', async () => {
    const shared = await rig.waitingCampaign(2);
    const jobs = await rig.dispatchJobs(shared.id);
    // Another process's dispatcher beats for it: it is nobody's orphan, so no job is queued for it.
    await rig.repo.beat(shared.id);
    rig.clock.set(MONDAY_930);
    await rig.supervisor().pass();
    expect(await shared.api.waitFor(shared.id, undefined, 15_000)).toMatchObject({
      status: 'COMPLETED',
      counts: { delivered: 2 },
      credits: { used: 2 },
    });
    expect(await rig.dispatchJobs(shared.id)).toBe(jobs);
    expect(rig.logsOf(shared.id, INFO)).toEqual([]);
  });

  it('does not queue a campaign another supervisor adopted between its list and its own claim', async () => {
    const campaign = await rig.waitingCampaign(1);
    const jobs = await rig.dispatchJobs(campaign.id);
    rig.clock.set(MONDAY_930);
    // Another process's supervisor takes it over right after this one listed it as orphaned.
    const late = rig.supervisor({
      pending: async (id, tx) => {
        if (id === campaign.id) await rig.repo.beat(id);
        return rig.repo.pending(id, tx);
      },
    });
    await late.pass();
    expect(await rig.dispatchJobs(campaign.id)).toBe(jobs);
    expect(rig.logsOf(campaign.id, INFO)).toEqual([]);
    // This process still helps with it (every live process shares a RUNNING campaign).
    expect(await campaign.api.waitFor(campaign.id, undefined, 15_000)).toMatchObject({ counts: { delivered: 1 } });
  });

  it('leaves rows a slow worker refreshed between the cut-off list and its lock: not settled, not paid', async () => {
    const campaign = await rig.waitingCampaign(2);
    const slow = rig.deadWorker();
    expect(await rig.repo.claim(campaign.id, slow, 2)).toHaveLength(2);
    rig.clock.set(MONDAY_8AM);
    // The worker beats again after the supervisor read its rows as cut off: they are its own again.
    const racing = rig.supervisor({
      cutOff: async (limit) => {
        const rows = await rig.repo.cutOff(limit);
        if (rows.some((r) => r.campaignId === campaign.id)) await rig.repo.workerBeat(slow, 1);
        return rows;
      },
    });
    await racing.pass();
    expect(await campaign.api.get(campaign.id)).toMatchObject({
      status: 'RUNNING',
      counts: { submitting: 2, unknown: 0 },
      credits: { reserved: 2, used: 0, released: 0 },
    });
    expect((await rig.server.modules.ledger.getBalances(campaign.user.id)).SMSSHORT).toEqual({
      available: 8,
      reserved: 2,
    });
    expect(rig.logs.filter((l) => l.campaignId === campaign.id)).toEqual([]);
    await rig.repo.forgetWorker(slow);
  });

  it('logs a step that fails for one campaign with it, and goes on with the others', async () => {
    const cutBroken = await rig.waitingCampaign(2);
    const cutOk = await rig.waitingCampaign(2);
    const finishBroken = await rig.waitingCampaign(1);
    const adoptBroken = await rig.waitingCampaign(1);
    const adoptOk = await rig.waitingCampaign(1);
    const startBroken = await rig.waitingCampaign(1, new Date(MONDAY_8AM.getTime() + 60 * 60_000));
    const startOk = await rig.waitingCampaign(1, new Date(MONDAY_8AM.getTime() + 60 * 60_000));
    for (const c of [cutBroken, cutOk, finishBroken]) await rig.repo.claim(c.id, rig.deadWorker(), 2);
    const adoptOkJobs = await rig.dispatchJobs(adoptOk.id);
    // The database refuses every write to two campaigns, and any change of status of two others.
    await refuseWrites([
      [cutBroken.id, false],
      [adoptBroken.id, false],
      [finishBroken.id, true],
      [startBroken.id, true],
    ]);
    try {
      rig.clock.set(MONDAY_930);
      await rig.supervisor().pass();
    } finally {
      await stopRefusing();
    }
    const failed = rig.logs
      .filter((l) => l.level === ERROR && l.msg === 'campaign supervisor step failed for one campaign')
      .filter((l) =>
        [cutBroken, cutOk, finishBroken, adoptBroken, adoptOk, startBroken, startOk].some((c) => c.id === l.campaignId),
      );
    expect(failed).toHaveLength(4);
    expect(failed).toEqual(
      expect.arrayContaining(
        (
          [
            [cutBroken.id, 'cut-off'],
            [adoptBroken.id, 'adopt'],
            [finishBroken.id, 'finish'],
            [startBroken.id, 'start'],
          ] as const
        ).map(([campaignId, step]) =>
          expect.objectContaining({
            campaignId,
            step,
            err: expect.objectContaining({ message: expect.stringContaining(REFUSED) }),
          }),
        ),
      ),
    );
    // Each healthy campaign had its step.
    expect(await cutOk.api.get(cutOk.id)).toMatchObject({
      status: 'COMPLETED',
      counts: { unknown: 2 },
      credits: { used: 2 },
    });
    expect(await rig.dispatchJobs(adoptOk.id)).toBeGreaterThan(adoptOkJobs);
    expect((await startOk.api.get(startOk.id)).status).not.toBe('SCHEDULED');
    // What failed left its campaign as it was.
    expect(await cutBroken.api.get(cutBroken.id)).toMatchObject({ counts: { submitting: 2 }, credits: { used: 0 } });
    expect(await finishBroken.api.get(finishBroken.id)).toMatchObject({ status: 'RUNNING', counts: { unknown: 1 } });
    expect((await startBroken.api.get(startBroken.id)).status).toBe('SCHEDULED');
    expect(await rig.heartbeatOf(adoptBroken.id)).toBeNull();
    // Seven campaigns set up through the API: minutes on a loaded machine.
  }, 240_000);

  it('logs a pass that fails as a whole, and the next pass does its work', async () => {
    const campaign = await rig.waitingCampaign(1);
    await rig.repo.claim(campaign.id, rig.deadWorker(), 1);
    await rig.sql(`create function test_refuse_beat() returns trigger language plpgsql as $$
      begin raise exception '${REFUSED}'; end $$`);
    await rig.sql(
      'create trigger test_refuse_beat before insert or update on dispatch_workers for each row execute function test_refuse_beat()',
    );
    const supervisor = rig.supervisor();
    try {
      await supervisor.pass();
    } finally {
      await rig.sql('drop trigger test_refuse_beat on dispatch_workers');
      await rig.sql('drop function test_refuse_beat()');
    }
    expect(rig.logs.filter((l) => l.msg === 'campaign supervisor pass failed')).toEqual([
      expect.objectContaining({
        level: ERROR,
        err: expect.objectContaining({ message: expect.stringContaining(REFUSED) }),
      }),
    ]);
    expect((await campaign.api.get(campaign.id)).counts).toMatchObject({ submitting: 1, unknown: 0 });
    await supervisor.pass();
    expect((await campaign.api.get(campaign.id)).counts).toMatchObject({ submitting: 0, unknown: 1 });
  });

  const REFUSED = 'refused by the test';
  /** A trigger refusing updates of these campaigns (only those changing its status, when `statusOnly`). */
  async function refuseWrites(campaigns: [id: string, statusOnly: boolean][]) {
    await rig.sql('create table test_refused_campaigns (id uuid primary key, status_only boolean not null)');
    for (const [id, statusOnly] of campaigns)
      await rig.sql('insert into test_refused_campaigns values ($1, $2)', [id, statusOnly]);
    await rig.sql(`create function test_refuse_campaign() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_refused_campaigns r where r.id = new.id
                   and (not r.status_only or new.status is distinct from old.status)) then
          raise exception '${REFUSED}: %', new.id;
        end if;
        return new;
      end $$`);
    await rig.sql(
      'create trigger test_refuse_campaign before update on campaigns for each row execute function test_refuse_campaign()',
    );
  }
  async function stopRefusing() {
    await rig.sql('drop trigger test_refuse_campaign on campaigns');
    await rig.sql('drop function test_refuse_campaign()');
    await rig.sql('drop table test_refused_campaigns');
  }
});
