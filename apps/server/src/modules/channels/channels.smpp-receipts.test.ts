/**
 * End to end: Ecoa bound (SMPP_URL) to a raw TCP "SMSC" that writes receipts as other SMSC
 * implementations do (receipted_message_id without its NUL, the id only in the text and in
 * another base, the text in message_payload). Each message row must end `delivered`; a receipt
 * naming no message is counted on /metrics instead of vanishing.
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, testConfig } from '../../../test/server.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { type ChannelsUser, testSend, userWithCredits, waitForMessage } from './channels.test-support.ts';
import { RawSmsc, rawDeliverSm, receiptText, TLV, tlv } from './providers/smpp/raw-smsc.test-support.ts';

const METRICS_TOKEN = 'smpp-receipts-metrics-token-0123456789';
// Unique to this run: on PostgreSQL the test database outlives one run, and a carrier id seen
// before belongs to an older message until a new submit takes it.
const FIRST_ID = Date.now() * 256 + randomInt(256);

describe('receipts from an SMSC with its own byte layouts reach the message rows', () => {
  let smsc: RawSmsc;
  let server: RunningServer;
  let user: ChannelsUser;

  beforeAll(async () => {
    // Submit ids in upper-case hex, as the SMSC of the issue writes them (399005E1…).
    smsc = await new RawSmsc((n) => (FIRST_ID + n).toString(16).toUpperCase()).start();
    server = await createTestServer({ config: testConfig({ SMPP_URL: smsc.url, METRICS_TOKEN }) });
    user = await userWithCredits(server);
  });
  afterAll(async () => {
    await server?.close();
    await smsc?.close();
  });

  /** A test send taken by the SMSC and stored `sent`: its row id and the carrier id it got. */
  async function sent(to: string): Promise<{ id: string; carrierId: string }> {
    const res = await testSend(server, user, { channel: 'sms_short', to, text: 'Oferta de hoje' });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json().id;
    await waitForMessage(server, user, id, (m) => m.status === 'sent');
    return { id, carrierId: smsc.submitted.at(-1)! };
  }

  async function rowStatus(id: string): Promise<string> {
    const { rows } = await server.db.executeSql('select status from messages where id = $1', [id]);
    return (rows[0] as { status: string }).status;
  }

  it('a receipted_message_id without its NUL, followed by message_state and network_error_code', async () => {
    const { id, carrierId } = await sent('+5511987650001');
    const status = await smsc.deliver((seq) =>
      rawDeliverSm(seq, {
        tlvs: [
          tlv(TLV.receiptedMessageId, carrierId),
          tlv(TLV.messageState, Buffer.from([2])),
          tlv(TLV.networkErrorCode, Buffer.from([3, 0, 0])),
        ],
      }),
    );
    expect(status).toBe(0);
    expect((await waitForMessage(server, user, id)).status).toBe('delivered');
    expect(await rowStatus(id)).toBe('delivered');
  });

  it('the id only in the text, in decimal, and a text in message_payload', async () => {
    const decimal = await sent('+5511987650002');
    const payload = await sent('+5511987650003');
    const asDecimal = String(Number.parseInt(decimal.carrierId, 16));
    expect(await smsc.deliver((seq) => rawDeliverSm(seq, { shortMessage: receiptText(asDecimal) }))).toBe(0);
    expect(
      await smsc.deliver((seq) =>
        rawDeliverSm(seq, { tlvs: [tlv(TLV.messagePayload, receiptText(payload.carrierId, 'UNDELIV', '001'))] }),
      ),
    ).toBe(0);
    expect((await waitForMessage(server, user, decimal.id)).status).toBe('delivered');
    expect(await rowStatus(decimal.id)).toBe('delivered');
    const failed = await waitForMessage(server, user, payload.id);
    expect(failed).toMatchObject({ status: 'failed', reason: 'SMPP_UNDELIV_err_001' });
  });

  it('a receipt naming no message is taken and counted on /metrics', async () => {
    const scrape = async () => {
      const res = await server.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(200);
      const line = res.body
        .split('\n')
        .find((l) => l.startsWith('ecoa_provider_receipts_unmatched_total{provider="smpp"}'));
      return Number(line?.split(' ')[1]);
    };
    const before = await scrape();
    expect(before).toBeGreaterThanOrEqual(0);
    const status = await smsc.deliver((seq) =>
      rawDeliverSm(seq, { tlvs: [tlv(TLV.receiptedMessageId, 'FFEE0001'), tlv(TLV.messageState, Buffer.from([2]))] }),
    );
    expect(status).toBe(0);
    expect(await scrape()).toBe(before + 1);
  });
});
