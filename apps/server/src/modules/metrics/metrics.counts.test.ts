import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, dbKind, listeningTestConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type ChannelsUser, sendAndWait, userWithCredits, WELL_BEHAVED } from '../channels/channels.test-support.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/**
 * `ecoa_messages` without counting `messages`: on PGlite a scan of every message holds the one
 * embedded backend (and every request) while it runs, and no statement timeout stops it there.
 * The counts are kept by the database as messages move, and they stay true.
 */
describe(`message metrics from kept counts, not a scan (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;
  /** Every statement run through the server's database handle while a scrape is under way. */
  let recording: string[] | undefined;

  beforeAll(async () => {
    server = await createTestServer({
      config: await listeningTestConfig({ METRICS_TOKEN: TOKEN }),
      listen: true,
      simulators: WELL_BEHAVED,
      isolated: true,
    });
    const execute = server.db.executeSql;
    server.db.executeSql = (text, values) => {
      recording?.push(text);
      return execute(text, values);
    };
    user = await userWithCredits(server);
    // Many messages already there: 20,000 sent SMS.
    await server.db.executeSql(
      `insert into messages (user_id, channel, to_phone, status, parts, provider, content)
       select $1, 'sms_short', '+5511912345678', 'sent', 1, 'smpp', '{}'::jsonb from generate_series(1, 20000)`,
      [user.id],
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  /** One scrape: its `ecoa_messages` samples and the statements it ran. */
  async function scrape() {
    const statements: string[] = [];
    recording = statements;
    const res = await server.app
      .inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
      .finally(() => {
        recording = undefined;
      });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ecoa_metrics_source_up{source="messages"} 1\n');
    const value = (channel: string, status: string) => {
      const line = res.body
        .split('\n')
        .find((l) => l.startsWith(`ecoa_messages{channel="${channel}",status="${status}"} `));
      return Number(line?.split(' ')[1]);
    };
    return { value, statements };
  }

  it('reads the kept counts in one statement, never `messages`, and they are true', async () => {
    const first = await scrape();
    expect(first.value('sms_short', 'sent')).toBe(20_000);
    expect(first.value('sms_short', 'delivered')).toBe(0);
    expect(first.statements.some((s) => /\bmessage_status_counts\b/.test(s))).toBe(true);
    expect(first.statements.filter((s) => /\bmessages\b/.test(s))).toEqual([]);

    // Three SMS sent for real (carrier simulator, receipts): the metric says three more, at once.
    for (let i = 0; i < 3; i++) {
      const m = await sendAndWait(server, user, { channel: 'sms_short', to: '11987654321', text: `Oi ${i}` });
      expect(m.status).toBe('delivered');
    }
    const after = await scrape();
    expect(after.value('sms_short', 'delivered')).toBe(3);
    expect(after.value('sms_short', 'sent')).toBe(20_000);
    expect(after.value('sms_short', 'submitting')).toBe(0);
    expect(after.value('sms_short', 'queued')).toBe(0);

    // Moves and deletions of any statement count too.
    await server.db.executeSql(
      `update messages set status = 'failed' where id in (select id from messages where status = 'sent' limit 300)`,
    );
    await server.db.executeSql(
      `delete from messages where id in (select id from messages where status = 'sent' limit 200)`,
    );
    const moved = await scrape();
    expect(moved.value('sms_short', 'sent')).toBe(19_500);
    expect(moved.value('sms_short', 'failed')).toBe(300);
  });

  it('the value is served from the counts (a difference written there shows), folded once they pile up', async () => {
    await server.db.executeSql(`insert into message_status_counts (channel, status, n) values ('rcs', 'expired', 7)`);
    expect((await scrape()).value('rcs', 'expired')).toBe(7);
    await server.db.executeSql(`insert into message_status_counts (channel, status, n) values ('rcs', 'expired', -7)`);
    expect((await scrape()).value('rcs', 'expired')).toBe(0);

    // 1,200 single-message status changes: a row of difference each, folded by the next scrape.
    await server.db.executeSql(
      `do $$ declare m uuid; begin
         for m in select id from messages where status = 'sent' limit 1200 loop
           update messages set status = 'delivered' where id = m;
         end loop; end $$`,
    );
    const { rows: before } = await server.db.executeSql('select count(*)::int as n from message_status_counts');
    expect((before[0] as { n: number }).n).toBeGreaterThan(1_000);
    const folded = await scrape();
    expect(folded.value('sms_short', 'delivered')).toBe(1_203);
    expect(folded.value('sms_short', 'sent')).toBe(18_300);
    const { rows: after } = await server.db.executeSql('select count(*)::int as n from message_status_counts');
    expect((after[0] as { n: number }).n).toBeLessThanOrEqual(6);
    expect((await scrape()).value('sms_short', 'delivered')).toBe(1_203);
  });
});
