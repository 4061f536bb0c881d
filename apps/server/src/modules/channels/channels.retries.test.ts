import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/factories.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { createChannelsRepository } from './channels.repository.ts';
import {
  type ChannelsUser,
  credits,
  getMessage,
  startChannelsServer,
  userWithCredits,
  waitForMessage,
} from './channels.test-support.ts';

/** A test send repeated or cut off midway: nothing sent twice, no credit lost or held forever. */
describe(`test sends repeated or interrupted (${dbKind})`, () => {
  let server: RunningServer;
  let user: ChannelsUser;

  beforeAll(async () => {
    server = await startChannelsServer(undefined, { isolated: true });
    user = await userWithCredits(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const send = (body: object, key?: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/v1/channels/test-send',
      headers: { ...bearer(user.token), ...(key ? { 'idempotency-key': key } : {}) },
      payload: body,
    });

  it('the same Idempotency-Key, sent again and at the same moment, sends once and charges once', async () => {
    const smsc = server.providers.simulators.smsc!;
    const submitsBefore = smsc.counters().submits;
    const before = await credits(server, user.id, 'SMSSHORT');
    const body = { channel: 'sms_short', to: '11987654321', text: 'Uma vez só' };
    const [a, b] = await Promise.all([send(body, 'key-1'), send(body, 'key-1')]);
    const again = await send(body, 'key-1');
    const ids = new Set([a.json().id, b.json().id, again.json().id]);
    expect(ids.size).toBe(1);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(again.statusCode).toBe(200);
    await waitForMessage(server, user, a.json().id);
    expect(smsc.counters().submits - submitsBefore).toBe(1);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 0 });
    // Another key is another message.
    const other = await send(body, 'key-2');
    expect(other.statusCode).toBe(201);
    expect(other.json().id).not.toBe(a.json().id);
    expect((await server.modules.ledger.reconcile(user.id)).ok).toBe(true);
  });

  it('a send whose process died during the carrier call is settled unknown and paid, once, and never resent', async () => {
    const smsc = server.providers.simulators.smsc!;
    // The carrier takes a while to answer: the message stays `submitting` meanwhile.
    smsc.setOptions({ responseLatencyMs: 1500 });
    const before = await credits(server, user.id, 'SMSSHORT');
    const submitsBefore = smsc.counters().submits;
    try {
      const pending = send({ channel: 'sms_short', to: '11987654321', text: 'cortado no meio' });
      let id: string | undefined;
      const deadline = Date.now() + 10_000;
      while (!id && Date.now() < deadline) {
        const { rows } = await server.db.executeSql(
          "select id from messages where user_id = $1 and status = 'submitting'",
          [user.id],
        );
        id = (rows[0] as { id: string } | undefined)?.id;
        if (!id) await new Promise((r) => setTimeout(r, 10));
      }
      expect(id).toBeDefined();
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 1 });
      // As if its process had died long ago: the sweep settles it (and whatever else a shared
      // test database holds, so the count is not this test's to check).
      await server.modules.channels.settleInterrupted(0);
      const settled = await getMessage(server, user, id!);
      expect(settled).toMatchObject({ status: 'unknown', reason: 'SUBMIT_INTERRUPTED' });
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 0 });
      // The slow carrier answers after all: the send is answered as sent, no second charge, its
      // carrier id is stored (its receipt settles it), and the sweep finds nothing more.
      const answered = await pending;
      expect(answered.statusCode, answered.body).toBe(201);
      expect((await waitForMessage(server, user, id!, (m) => m.status === 'delivered')).status).toBe('delivered');
      await server.modules.channels.settleInterrupted(0);
      expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 0 });
      expect(smsc.counters().submits - submitsBefore).toBe(1);
      expect((await server.modules.ledger.reconcile(user.id)).ok).toBe(true);
    } finally {
      smsc.setOptions({ responseLatencyMs: 0 });
    }
  });

  it('a send whose process died between its commit and `submitting` gets its credits back, once, and is never sent', async () => {
    const smsc = server.providers.simulators.smsc!;
    const repo = createChannelsRepository(server.db.db);
    const before = await credits(server, user.id, 'SMSSHORT');
    const submitsBefore = smsc.counters().submits;
    // What a test send commits first (the message and its reservation); then its process dies.
    const id = await server.db.db.transaction(async (tx) => {
      const messageId = await repo.createMessage(
        {
          userId: user.id,
          channel: 'sms_short',
          toPhone: '+5511987654321',
          parts: 1,
          provider: 'smpp',
          content: { kind: 'sms', text: 'nunca saiu', flash: false },
        },
        new Date(),
        tx,
      );
      await server.modules.ledger.reserve({
        userId: user.id,
        type: 'SMSSHORT',
        amount: 1,
        reference: { type: 'message', id: messageId },
        tx,
      });
      return messageId;
    });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual({ available: before.available - 1, reserved: 1 });
    // As if long ago: the sweep releases it (it never reached the carrier), once.
    await server.modules.channels.settleInterrupted(0);
    expect(await getMessage(server, user, id)).toMatchObject({ status: 'failed', reason: 'SEND_INTERRUPTED' });
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual(before);
    await server.modules.channels.settleInterrupted(0);
    expect(await credits(server, user.id, 'SMSSHORT')).toEqual(before);
    // A process that was only slow, not dead, finds it settled and does not send it.
    expect(await repo.markSubmitting(id, new Date())).toBe(false);
    expect((await getMessage(server, user, id)).status).toBe('failed');
    expect(smsc.counters().submits - submitsBefore).toBe(0);
    expect((await server.modules.ledger.reconcile(user.id)).ok).toBe(true);
  });
});
