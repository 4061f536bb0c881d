import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { campaignsUser, importList, mobile, startCampaignsServer } from './campaigns.test-support.ts';

describe('the campaign timeline’s bucket follows how long the campaign ran', () => {
  let server: RunningServer;
  openBeforeAll(startCampaignsServer, (opened) => (server = opened));

  it('draws a campaign of seconds second by second, and wider buckets as campaigns run longer', async () => {
    const { user, api: c } = await campaignsUser(server, 20);
    const list = await importList(server, user.token, [{ phone: mobile() }, { phone: mobile() }, { phone: mobile() }]);
    const id = await c.create({ name: 'Relâmpago', channel: 'sms_short', listIds: [list], content: { text: 'Oi' } });
    await c.move(id, 'start');
    await c.waitFor(id);
    const sql = (text: string, params: unknown[] = []) => server.db.executeSql(text, params);
    // The three sends 0 s, 4 s and 8 s after the start; the campaign ends at 9 s.
    const spread = async (stepMs: number, lengthMs: number) => {
      await sql(
        `update messages m set submitted_at = c.started_at + (o.n * $2::int) * interval '1 millisecond',
                finished_at = c.started_at + (o.n * $2::int + 500) * interval '1 millisecond'
           from campaigns c,
                (select id, row_number() over (order by id) - 1 as n from messages where campaign_id = $1) o
          where m.campaign_id = $1 and c.id = $1 and o.id = m.id`,
        [id, stepMs],
      );
      await sql(`update campaigns set finished_at = started_at + $2::int * interval '1 millisecond' where id = $1`, [
        id,
        lengthMs,
      ]);
      return (await c.call('GET', `/api/v1/campaigns/${id}/timeline`)).json();
    };

    const seconds = await spread(4_000, 9_000);
    expect(seconds.bucket).toBe('second');
    // Every second from one before the first send to one after the last outcome: a line, not one dot.
    const times = seconds.points.map((p: { at: string }) => Date.parse(p.at));
    expect(times.slice(1).map((t: number, i: number) => t - times[i]!)).toEqual(Array(times.length - 1).fill(1_000));
    expect(seconds.points.length).toBeGreaterThanOrEqual(10);
    expect([seconds.points[0].sent, seconds.points.at(-1).delivered]).toEqual([0, 0]);
    const total = (t: { points: Record<string, number>[] }, k: string) => t.points.reduce((n, p) => n + p[k]!, 0);
    expect([total(seconds, 'sent'), total(seconds, 'delivered')]).toEqual([3, 3]);

    const minutes = await spread(2 * 60_000, 5 * 60_000);
    expect(minutes.bucket).toBe('10s');
    // Sends at 0, 2 and 4 minutes in 10 s buckets, an empty bucket on each side (one more when
    // the last outcome, half a second after its send, falls in the next bucket).
    expect(minutes.points.length).toBeGreaterThanOrEqual(4 * 6 + 1 + 2);
    expect(minutes.points.length).toBeLessThanOrEqual(4 * 6 + 1 + 3);
    for (const p of minutes.points) expect(new Date(p.at).getUTCSeconds() % 10).toBe(0);

    expect((await spread(10 * 60_000, 40 * 60_000)).bucket).toBe('minute');
    const tenMinutes = await spread(2 * 3_600_000, 5 * 3_600_000);
    expect(tenMinutes.bucket).toBe('10min');
    for (const p of tenMinutes.points) expect(new Date(p.at).getUTCMinutes() % 10).toBe(0);
    expect((await spread(12 * 3_600_000, 30 * 3_600_000)).bucket).toBe('hour');
  });
});
