import { describe, expect, it } from 'vitest';
import { openBeforeAll } from '../../../test/hooks.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { mobile, startCampaignsServer } from '../campaigns/campaigns.test-support.ts';
import { userWithCredits } from '../channels/channels.test-support.ts';
import { IDEMPOTENCY_KEY_RETENTION_MS, idempotencyPurgeQueue } from './messages-api.jobs.ts';
import { createMessagesApiRepository } from './messages-api.repository.ts';
import { messagesApi, smsCredits } from './messages-api.test-support.ts';

/** `Idempotency-Key`s are kept 24 hours: the hourly job deletes older ones, and their key is free again. */
describe(`Idempotency-Key retention (${dbKind})`, () => {
  let server: RunningServer;
  openBeforeAll(
    () => startCampaignsServer(),
    (opened) => (server = opened),
  );

  const keys = async (userId: string) =>
    (
      (await server.db.executeSql('select key from api_idempotency_keys where user_id = $1 order by key', [userId]))
        .rows as { key: string }[]
    ).map((r) => r.key);
  const age = (userId: string, key: string, interval: string) =>
    server.db.executeSql(
      `update api_idempotency_keys set created_at = now() - $3::interval where user_id = $1 and key = $2`,
      [userId, key, interval],
    );

  it('the hourly job deletes the keys older than 24 hours and keeps the newer ones', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const body = { channel: 'sms_short' as const, to: mobile(), text: 'Oi', scheduledAt };
    for (const key of ['antiga', 'quase', 'nova']) expect((await api.send(body, key)).statusCode).toBe(202);
    await age(user.id, 'antiga', '24 hours 1 minute');
    await age(user.id, 'quase', '23 hours 58 minutes');
    expect(await keys(user.id)).toEqual(['antiga', 'nova', 'quase']);

    await server.jobs.send(idempotencyPurgeQueue, {});
    await expect.poll(() => keys(user.id), { timeout: 20_000, interval: 200 }).toEqual(['nova', 'quase']);

    // A kept key still answers its first result (nothing queued again); a purged key is a new request.
    expect((await api.send(body, 'quase')).statusCode).toBe(202);
    expect(await smsCredits(server, user.id)).toMatchObject({ reserved: 3 });
    expect((await api.send(body, 'antiga')).statusCode).toBe(202);
    expect(await smsCredits(server, user.id)).toMatchObject({ reserved: 4 });
    expect(await keys(user.id)).toEqual(['antiga', 'nova', 'quase']);
  });

  it('purges in chunks until none is left past the cutoff', async () => {
    const user = await userWithCredits(server, 20);
    const api = messagesApi(server, user.token);
    const scheduledAt = new Date(Date.now() + 3_600_000).toISOString();
    const body = { channel: 'sms_short' as const, to: mobile(), text: 'Oi', scheduledAt };
    for (const key of ['a', 'b', 'c', 'd']) expect((await api.send(body, key)).statusCode).toBe(202);
    for (const key of ['a', 'b', 'c']) await age(user.id, key, '2 days');
    const cutoff = new Date(Date.now() - IDEMPOTENCY_KEY_RETENTION_MS);
    // Other tests' keys are all newer than a day: only these three go, two a statement.
    expect(await createMessagesApiRepository(server.db.db).purgeBefore(cutoff, 2)).toBe(3);
    expect(await keys(user.id)).toEqual(['d']);
  });
});
