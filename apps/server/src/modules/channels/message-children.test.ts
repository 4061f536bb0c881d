import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type ChannelsUser, userWithCredits } from './channels.test-support.ts';

/**
 * The rows written per message have no foreign keys (ADR 023, migration 0027): deleting messages
 * still takes their history and carrier ids with them, by the statement-level trigger, and leaves
 * other messages' rows alone.
 */
describe(`a message's history and carrier ids go with it (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;
  const q = async <T>(text: string, values: unknown[] = []) => (await server.db.executeSql(text, values)).rows as T[];

  beforeAll(async () => {
    server = await createTestServer({ isolated: true });
    user = await userWithCredits(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function messageWithChildren(carrierId: string): Promise<string> {
    const [row] = await q<{ id: string }>(
      `insert into messages (user_id, channel, to_phone, status, parts, provider, content)
       values ($1, 'sms_short', '+5511999990000', 'delivered', 1, 'smpp', '{"text":"oi"}') returning id`,
      [user.id],
    );
    await q(
      `insert into message_events (message_id, status, at) values ($1, 'sent', now()), ($1, 'delivered', now())`,
      [row!.id],
    );
    await q(
      `insert into provider_message_ids (provider, provider_message_id, message_id, part) values ('smpp', $1, $2, 1)`,
      [carrierId, row!.id],
    );
    return row!.id;
  }

  const children = async (id: string) => {
    const [row] = await q<{ events: number; ids: number }>(
      `select (select count(*)::int from message_events where message_id = $1) as events,
              (select count(*)::int from provider_message_ids where message_id = $1) as ids`,
      [id],
    );
    return row;
  };

  it('deletes the children of the deleted messages only, in one statement', async () => {
    const gone = [await messageWithChildren('c-1'), await messageWithChildren('c-2')];
    const kept = await messageWithChildren('c-3');
    await q('delete from messages where id = any($1::uuid[])', [gone]);
    for (const id of gone) expect(await children(id)).toEqual({ events: 0, ids: 0 });
    expect(await children(kept)).toEqual({ events: 2, ids: 1 });
  });

  it('keeps no foreign key on the per-message rows', async () => {
    const keys = await q<{ name: string }>(
      `select conname as name from pg_constraint
        where contype = 'f' and conrelid in ('messages'::regclass, 'message_events'::regclass, 'provider_message_ids'::regclass)`,
    );
    expect(keys).toEqual([]);
  });
});
