import { analyzeSms } from '@ecoa/shared';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { credits } from '../channels/channels.test-support.ts';
import {
  campaignsUser,
  freshMobiles,
  importList,
  mobile,
  smsCampaign,
  startCampaignsServer,
  uploadAudio,
} from './campaigns.test-support.ts';

/**
 * Credits under slow carriers, crashes and broken campaigns:
 * a recipient's credits move once, when it leaves `submitting`, whoever moves it; one
 * campaign's failure never stops the others; what never reached the carrier is never charged.
 */
describe('campaign credits move once, and one campaign never blocks another', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));
  const smsc = () => server.providers.simulators.smsc!;
  const sql = (text: string, params: unknown[] = []) => server.db.executeSql(text, params);
  const backdateClaims = (id: string) =>
    sql(
      `update messages set updated_at = now() - interval '11 minutes' where campaign_id = $1 and status = 'submitting'`,
      [id],
    );

  async function slowCampaign(recipients: number) {
    const { user, api: c } = await campaignsUser(server, 50);
    const list = await importList(server, user.token, freshMobiles(recipients));
    const id = await c.create({ ...smsCampaign('Lenta', list), maxRate: 4 });
    smsc().reset();
    // Each submit answered after 3 s: a batch stays out long enough to be looked at.
    smsc().setOptions({ responseLatencyMs: 3000 });
    await c.move(id, 'start');
    await c.waitFor(id, (x) => x.counts.submitting > 0, 10_000);
    return { user, c, id };
  }

  it('a live batch older than the cut-off limit is captured once (credits used = messages the SMSC took)', async () => {
    const { user, c, id } = await slowCampaign(10);
    try {
      // The batch out looks ten minutes old: the supervisor cuts it off while its worker still sends it.
      await backdateClaims(id);
      // Twice: the first may be a pass the server's own timer began before the backdate.
      await server.modules.supervisor.pass();
      await server.modules.supervisor.pass();
      expect((await c.get(id)).counts.unknown).toBeGreaterThan(0);
      // Every recipient reached, and each one's receipt matched: the live settle stored the carrier
      // ids of the rows cut off meanwhile (without capturing them again).
      const done = await c.waitFor(id, (x) => x.status === 'COMPLETED' && x.counts.delivered === 10, 40_000);
      expect(smsc().counters()).toMatchObject({ messages: 10, duplicates: 0 });
      expect(done.credits).toEqual({ reserved: 10, used: 10, released: 0 });
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 50 - 10, reserved: 0 });
    } finally {
      smsc().setOptions({ responseLatencyMs: 0 });
    }
  }, 60_000);

  it("a live dispatcher keeps its batch's rows fresh: they are not cut off, nobody is `unknown`", async () => {
    const { c, id } = await slowCampaign(6);
    try {
      await backdateClaims(id);
      await server.modules.dispatcher.refreshClaims();
      await server.modules.supervisor.pass();
      await server.modules.supervisor.pass();
      const done = await c.waitFor(id, undefined, 40_000);
      expect(done).toMatchObject({
        status: 'COMPLETED',
        counts: { delivered: 6, unknown: 0 },
        credits: { reserved: 6, used: 6, released: 0 },
      });
    } finally {
      smsc().setOptions({ responseLatencyMs: 0 });
    }
  }, 60_000);

  it("a campaign whose cut-off settle throws does not stop another user's scheduled campaign from starting or a finished one from completing", async () => {
    // A campaign whose reservation is spent, with a recipient left `submitting` by a dead worker:
    // capturing it throws RESERVATION_EXCEEDED on every pass.
    const { user: broken, api: b } = await campaignsUser(server, 10);
    const brokenList = await importList(server, broken.token, [{ phone: mobile() }, { phone: mobile() }]);
    const brokenId = await b.create(smsCampaign('Quebrada', brokenList));
    await b.move(brokenId, 'start');
    await b.waitFor(brokenId);
    await sql(
      `update messages set status = 'submitting', worker_id = gen_random_uuid(), updated_at = now() where id = (select id from messages where campaign_id = $1 limit 1)`,
      [brokenId],
    );
    await sql(`update campaigns set status = 'RUNNING', finished_at = null where id = $1`, [brokenId]);

    const { user: other, api: o } = await campaignsUser(server, 10);
    const list = await importList(server, other.token, [{ phone: mobile() }]);
    const scheduled = await o.create({ ...smsCampaign('Agendada', list), schedule: '2099-01-04T10:00:00-03:00' });
    expect((await o.move(scheduled, 'start')).status).toBe('SCHEDULED');
    await sql(`update campaigns set scheduled_at = now() - interval '1 minute' where id = $1`, [scheduled]);
    // A campaign with nothing left that is not marked finished yet (its last settle's process died).
    const finished = await o.create(smsCampaign('Terminada', list));
    await o.move(finished, 'start');
    await o.waitFor(finished);
    await sql(`update campaigns set status = 'RUNNING', finished_at = null where id = $1`, [finished]);

    await server.modules.supervisor.pass();
    expect((await o.waitFor(scheduled, (x) => x.status !== 'SCHEDULED', 8000)).status).not.toBe('SCHEDULED');
    expect(await o.waitFor(finished, (x) => x.status === 'COMPLETED', 8000)).toMatchObject({ status: 'COMPLETED' });
    expect(await o.waitFor(scheduled, undefined, 20_000)).toMatchObject({
      status: 'COMPLETED',
      counts: { delivered: 1 },
    });
    await sql(`update campaigns set status = 'CANCELED', finished_at = now() where id = $1`, [brokenId]);
    await sql(`update messages set status = 'unknown' where campaign_id = $1 and status = 'submitting'`, [brokenId]);
  }, 60_000);

  it("a long SMS whose first part the SMSC took and second refused is `unknown` and captured, its taken part's id kept", async () => {
    const { user, api: c } = await campaignsUser(server, 20);
    const list = await importList(server, user.token, freshMobiles(3));
    const text = 'Oferta '.repeat(30);
    expect(analyzeSms(text).parts).toHaveLength(2);
    const id = await c.create({ name: 'Metade', channel: 'sms_short', listIds: [list], content: { text } });
    smsc().reset();
    // Receipts off: the message's fate is what the submit said (a part's receipt may settle it later).
    smsc().setOptions({ refuseLaterParts: 0x0b, receipts: false });
    try {
      await c.move(id, 'start');
      const done = await c.waitFor(id, undefined, 30_000);
      expect(done).toMatchObject({
        status: 'COMPLETED',
        counts: { unknown: 3, failed: 0 },
        credits: { reserved: 6, used: 6, released: 0 },
        reasons: [{ reason: 'SMPP_0x0000000B', count: 3 }],
      });
      expect(smsc().counters().submits).toBe(3);
      const { rows } = await sql(
        `select p.part, p.provider_message_id from provider_message_ids p join messages m on m.id = p.message_id
         where m.campaign_id = $1 order by p.provider_message_id`,
        [id],
      );
      const taken = smsc()
        .records()
        .map((r) => r.messageId)
        .sort();
      expect(rows.map((r) => (r as { provider_message_id: string }).provider_message_id)).toEqual(taken);
      expect(rows.every((r) => Number((r as { part: number }).part) === 0)).toBe(true);
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: 20 - 6, reserved: 0 });
    } finally {
      smsc().setOptions({ refuseLaterParts: null, receipts: true });
    }
  }, 60_000);

  // Two connections needed: PGlite has one, where the delete's open transaction would hold everything.
  it.runIf(dbKind === 'postgres')(
    "a start and the audio's delete serialise: a start waiting on a delete in progress is refused with AUDIO_NOT_FOUND, nothing reserved",
    async () => {
      const { user, api: c } = await campaignsUser(server, 10);
      const audioId = await uploadAudio(server, user.token);
      const list = await importList(server, user.token, [{ phone: mobile() }]);
      const id = await c.create({ name: 'Corrida', channel: 'voice_torpedo', listIds: [list], content: { audioId } });
      const deleting = new pg.Client({ connectionString: server.config.databaseUrl });
      await deleting.connect();
      try {
        // The audio's delete as audios.repository does it: its row locked, then gone.
        await deleting.query('begin');
        await deleting.query('select id from audios where id = $1 for update', [audioId]);
        await deleting.query('delete from audios where id = $1', [audioId]);
        const deleter = (await deleting.query('select pg_backend_pid() as pid')).rows[0].pid as number;
        const starting = c.call('POST', `/api/v1/campaigns/${id}/start`);
        // The start has reached the audio's row and waits for the delete's lock: the race is on.
        const deadline = Date.now() + 15_000;
        let waiting = 0;
        while (waiting === 0 && Date.now() < deadline) {
          const { rows } = await server.db.executeSql(
            'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
            [deleter],
          );
          waiting = (rows[0] as { n: number }).n;
          if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(waiting, 'the start never waited for the delete').toBeGreaterThan(0);
        await deleting.query('commit');
        const res = await starting;
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().code).toBe('AUDIO_NOT_FOUND');
      } finally {
        await deleting.end();
      }
      expect(await c.get(id)).toMatchObject({ status: 'DRAFT', total: 0 });
      expect(await credits(server, user.id, 'URA')).toEqual({ available: 10, reserved: 0 });
    },
    60_000,
  );

  it('a voice campaign whose audio vanished is never charged: its recipients go back to the queue and the campaign pauses with the reason', async () => {
    const { user, api: c } = await campaignsUser(server, 10);
    const audioId = await uploadAudio(server, user.token);
    const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }]);
    const id = await c.create({
      name: 'Sem áudio',
      channel: 'voice_torpedo',
      listIds: [list],
      content: { audioId },
      schedule: '2099-01-04T10:00:00-03:00',
    });
    expect((await c.move(id, 'start')).status).toBe('SCHEDULED');
    // What a delete racing the start left behind: a campaign that plays an audio that is gone.
    await sql('delete from audios where id = $1', [audioId]);
    await sql(`update campaigns set scheduled_at = now() - interval '1 minute' where id = $1`, [id]);
    await server.modules.supervisor.pass();
    const paused = await c.waitFor(id, (x) => x.status === 'PAUSED', 30_000);
    expect(paused.statusDetail).toMatch(/AUDIO_NOT_FOUND/);
    expect(paused.counts).toMatchObject({ queued: 2, submitting: 0, unknown: 0 });
    expect(paused.credits).toEqual({ reserved: 2, used: 0, released: 0 });
    await c.move(id, 'cancel');
    const end = await c.waitFor(id);
    expect(end.credits).toEqual({ reserved: 2, used: 0, released: 2 });
    expect(await credits(server, user.id, 'URA')).toEqual({ available: 10, reserved: 0 });
  }, 60_000);
});
