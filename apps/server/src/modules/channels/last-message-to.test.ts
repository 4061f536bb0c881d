import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openServerWithUser } from '../../../test/hooks.test-support.ts';
import { dbKind, inRolledBackTransaction } from '../../../test/server.test-support.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { RunningServer } from '../../server.ts';
import { createChannelsRepository, lastMessageToQuery } from './channels.repository.ts';

/**
 * Whose message a reply answers: the last one sent to its phone, found through
 * `messages_to_created_idx`, whose phones are kept in byte order (ADR 026).
 */
describe(`the last message sent to a phone (${dbKind})`, () => {
  let server: RunningServer;
  let userId: string;

  openServerWithUser((opened) => {
    ({ server, userId } = opened);
  });

  it('is the newest on the channels asked for, sent before the reply', async () => {
    const repo = createChannelsRepository(server.db.db);
    const phone = `+55119${String(Date.now()).slice(-8)}`;
    const at = (iso: string) => new Date(iso);
    const send = async (channel: 'sms_short' | 'whatsapp', createdAt: string) => {
      const [row] = await rowsOf<{ id: string }>(
        server.db.db.execute(sql`
          insert into messages (user_id, channel, to_phone, status, parts, provider, content, created_at, updated_at)
          values (${userId}, ${channel}, ${phone}, 'sent', 1, 'simulator', '{"kind":"sms","text":"Oi"}'::jsonb,
            ${createdAt}::timestamptz, ${createdAt}::timestamptz)
          returning id`),
      );
      return row!.id;
    };
    await send('sms_short', '2026-11-01T10:00:00Z');
    const lastSms = await send('sms_short', '2026-11-02T10:00:00Z');
    const whatsapp = await send('whatsapp', '2026-11-03T10:00:00Z');
    await send('sms_short', '2026-11-04T10:00:00Z');

    const reply = at('2026-11-03T12:00:00Z');
    expect((await repo.lastMessageTo(phone, ['sms_short', 'sms_flash'], reply))?.messageId).toBe(lastSms);
    expect((await repo.lastMessageTo(phone, ['whatsapp'], reply))?.messageId).toBe(whatsapp);
    expect(await repo.lastMessageTo(phone, ['sms_short'], at('2026-10-01T00:00:00Z'))).toBeUndefined();
    expect(await repo.lastMessageTo(`${phone}9`, ['sms_short'], reply)).toBeUndefined();
  });

  it('reads the phone index, not every message, whatever the number of messages', async () => {
    // 20,000 messages to other phones, in a transaction rolled back at the end, statistics taken.
    const plan = await inRolledBackTransaction(server.db.db, async (tx) => {
      await tx.execute(sql`
        insert into messages (user_id, channel, to_phone, status, parts, provider, content)
        select ${userId}, 'sms_short', '+5511' || (900000000 + g), 'sent', 1, 'simulator', '{}'::jsonb
        from generate_series(1, 20000) g`);
      await tx.execute(sql`analyze messages`);
      const query = lastMessageToQuery(tx, '+5511900000123', ['sms_short'], new Date());
      return rowsOf<{ 'QUERY PLAN': string }>(tx.execute(sql`explain ${query}`));
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('messages_to_created_idx');
    expect(text).not.toMatch(/Seq Scan on messages/);
  });
});
