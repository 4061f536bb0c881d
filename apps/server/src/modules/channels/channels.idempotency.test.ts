import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/factories.test-support.ts';
import { dbKind } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import {
  type ChannelsUser,
  credits,
  getMessage,
  startChannelsServer,
  userWithCredits,
  waitForMessage,
} from './channels.test-support.ts';

/**
 * An Idempotency-Key is the user's own: keys are chosen by each customer's integration (often a
 * counter or an order number), so two accounts using the same one is ordinary.
 */
describe(`test-send Idempotency-Key per user (${dbKind})`, () => {
  let server: RunningServer;
  let ana: ChannelsUser;
  let bia: ChannelsUser;

  beforeAll(async () => {
    server = await startChannelsServer();
    ana = await userWithCredits(server, 10);
    bia = await userWithCredits(server, 10);
  });
  afterAll(async () => {
    await server?.close();
  });

  const send = (user: ChannelsUser, body: object, key: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/v1/channels/test-send',
      headers: { ...bearer(user.token), 'idempotency-key': key },
      payload: body,
    });

  it('the same key from another account sends that account’s own message, charged to it', async () => {
    const key = `pedido-${Date.now()}`;
    const first = await send(ana, { channel: 'sms_short', to: '11987650101', text: 'Pedido da Ana' }, key);
    expect(first.statusCode, first.body).toBe(201);
    await waitForMessage(server, ana, first.json().id);

    const submits = server.providers.simulators.smsc!.counters().submits;
    const second = await send(bia, { channel: 'sms_short', to: '11987650202', text: 'Pedido da Bia' }, key);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().id).not.toBe(first.json().id);
    expect(second.body).not.toContain('987650101');
    const hers = await waitForMessage(server, bia, second.json().id);
    expect(hers).toMatchObject({ to: '+5511987650202', status: 'delivered' });
    expect(server.providers.simulators.smsc!.counters().submits - submits).toBe(1);
    expect(await credits(server, bia.id, 'SMSSHORT')).toEqual({ available: 9, reserved: 0 });
    expect(await credits(server, ana.id, 'SMSSHORT')).toEqual({ available: 9, reserved: 0 });

    // And each account's retry still answers its own first message.
    const anaAgain = await send(ana, { channel: 'sms_short', to: '11987650101', text: 'Pedido da Ana' }, key);
    const biaAgain = await send(bia, { channel: 'sms_short', to: '11987650202', text: 'Pedido da Bia' }, key);
    expect([anaAgain.statusCode, biaAgain.statusCode]).toEqual([200, 200]);
    expect([anaAgain.json().id, biaAgain.json().id]).toEqual([first.json().id, second.json().id]);
    expect((await getMessage(server, ana, first.json().id)).to).toBe('+5511987650101');
  });
});
