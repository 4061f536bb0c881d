/**
 * A carrier's receipt is acknowledged only once it is committed (issue 24, goal 3): the SMPP
 * deliver_sm_resp OK and the WhatsApp webhook's 200 go out after the transaction that stores the
 * status, never before. The database is made to refuse the receipt's write (a trigger on
 * `message_events` for that one message, raising inside the receipt batch's transaction): the
 * carrier is then told to send it again (0x64 ESME_RX_T_APPN; 503), and the row is untouched.
 * Let through, the next delivery is acknowledged, and at the moment the acknowledgement reaches
 * the carrier the row already reads `delivered` (read once, no waiting: the commit came first).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, dbKind, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type ChannelsUser, testSend, userWithCredits, waitForMessage } from './channels.test-support.ts';
import { STATUS } from './providers/smpp/pdu.ts';
import { RawSmsc, rawDeliverSm, receiptText, TLV, tlv } from './providers/smpp/raw-smsc.test-support.ts';
import { WHATSAPP_WEBHOOK_PATH } from './providers/whatsapp/whatsapp.webhook.ts';
import { signWhatsAppBody, statusNotification } from './providers/whatsapp/whatsapp.wire.ts';

// Unique to this run: on PostgreSQL the test database outlives one run.
const FIRST_ID = Date.now() * 256 + randomInt(256);

describe(`a receipt is acknowledged only once committed (${dbKind})`, () => {
  let smsc: RawSmsc;
  let server: RunningServer;
  let user: ChannelsUser;

  beforeAll(async () => {
    smsc = await new RawSmsc((n) => (FIRST_ID + n).toString(16).toUpperCase()).start();
    server = await createTestServer({
      config: testConfig({ SMPP_URL: smsc.url }),
      // The WhatsApp simulator posts no statuses of its own: the test posts them.
      simulators: { whatsapp: { callbackUrl: null } },
    });
    user = await userWithCredits(server);
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.close();
  });

  async function rowStatus(id: string): Promise<string> {
    const { rows } = await server.db.executeSql('select status from messages where id = $1', [id]);
    return (rows[0] as { status: string }).status;
  }

  /** Makes the database refuse any status event written for `messageId`; returns how to let them through again. */
  async function refuseWritesFor(messageId: string): Promise<() => Promise<void>> {
    const name = `test_refuse_${randomUUID().replaceAll('-', '')}`;
    await server.db.executeSql(
      `create function ${name}() returns trigger language plpgsql as $$
       begin raise exception 'receipt write refused (test)'; end $$`,
    );
    await server.db.executeSql(
      `create trigger ${name} before insert on message_events for each row
       when (new.message_id = '${messageId}') execute function ${name}()`,
    );
    return async () => {
      await server.db.executeSql(`drop trigger ${name} on message_events`);
      await server.db.executeSql(`drop function ${name}()`);
    };
  }

  it('SMPP: deliver_sm_resp is 0x64 while the write fails (row untouched), OK only after the commit', async () => {
    const res = await testSend(server, user, { channel: 'sms_short', to: '+5511987650501', text: 'Recibo' });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json().id;
    await waitForMessage(server, user, id, (m) => m.status === 'sent');
    const carrierId = smsc.submitted.at(-1)!;
    const receipt = (seq: number) =>
      rawDeliverSm(seq, {
        shortMessage: receiptText(carrierId),
        tlvs: [tlv(TLV.receiptedMessageId, `${carrierId}\0`), tlv(TLV.messageState, Buffer.from([2]))],
      });

    const allow = await refuseWritesFor(id);
    try {
      expect(await smsc.deliver(receipt)).toBe(STATUS.TEMPORARY_APP_ERROR);
      expect(await rowStatus(id)).toBe('sent');
    } finally {
      await allow();
    }
    // Sent again, as the SMSC does: acknowledged, and already committed when the OK arrives.
    expect(await smsc.deliver(receipt)).toBe(STATUS.OK);
    expect(await rowStatus(id)).toBe('delivered');
  });

  it('WhatsApp: the status webhook is answered 503 while the write fails (row untouched), 200 only after the commit', async () => {
    const res = await testSend(server, user, {
      channel: 'whatsapp',
      to: '+5511987650502',
      template: { name: 'boas_vindas', language: 'pt_BR', params: ['Ana'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json().id;
    await waitForMessage(server, user, id, (m) => m.status === 'sent');
    const { rows } = await server.db.executeSql(
      'select provider_message_id as wamid from provider_message_ids where message_id = $1',
      [id],
    );
    const whatsapp = server.providers.simulators.whatsapp!;
    const body = JSON.stringify(
      statusNotification({
        phoneNumberId: whatsapp.config.phoneNumberId,
        wamid: (rows[0] as { wamid: string }).wamid,
        status: 'delivered',
        timestamp: Math.floor(Date.now() / 1000) + 1,
        recipient: '5511987650502',
      }),
    );
    const post = () =>
      server.app.inject({
        method: 'POST',
        url: `/api/webhooks/whatsapp${WHATSAPP_WEBHOOK_PATH}`,
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signWhatsAppBody(whatsapp.config.appSecret, body),
        },
        payload: body,
      });

    const allow = await refuseWritesFor(id);
    try {
      const refused = await post();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ code: 'WEBHOOK_NOT_STORED' });
      expect(await rowStatus(id)).toBe('sent');
    } finally {
      await allow();
    }
    // Delivered again, as Meta does: 200, and already committed when it is answered.
    expect((await post()).statusCode).toBe(200);
    expect(await rowStatus(id)).toBe('delivered');
  });
});
