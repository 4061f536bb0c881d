import { firstDisallowedCharacter } from '@ecoa/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelProvider, ProviderEvent } from '../../src/modules/channels/provider.ts';
import {
  serveWebhooks,
  type WebhookServer,
} from '../../src/modules/channels/providers/http-kit/webhook-server.test-support.ts';
import { createRcsProvider } from '../../src/modules/channels/providers/rcs/rcs.provider.ts';
import { signRcsData } from '../../src/modules/channels/providers/rcs/rcs.wire.ts';
import { createWhatsAppProvider } from '../../src/modules/channels/providers/whatsapp/whatsapp.provider.ts';
import { signWhatsAppBody } from '../../src/modules/channels/providers/whatsapp/whatsapp.wire.ts';
import {
  RCS_AGENT_ID,
  rbmPayloadBytes,
  WHATSAPP_PHONE_NUMBER_ID,
  whatsappNotificationBytes,
} from './carriers.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';

const BUDGET = {
  runs: 400,
  timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000,
  maxRssGrowthMb: 400,
  minRuns: 51,
};
const WEBHOOK_CODES = [
  'WEBHOOK_SIGNATURE_INVALID',
  'WEBHOOK_BODY_INVALID',
  'WEBHOOK_BODY_TOO_LARGE',
  'WEBHOOK_CLIENT_TOKEN_INVALID',
];
const APP_SECRET = 'fuzz-app-secret';
const CLIENT_TOKEN = 'fuzz-client-token';
const signing = fc.constantFrom('valid', 'valid', 'wrong', 'missing');
type Signing = 'valid' | 'wrong' | 'missing';

/** Everything an emitted event carries is clean enough to store. */
function eventProblem(event: ProviderEvent): string | undefined {
  if (Number.isNaN(event.at.getTime())) return 'EVENT_BAD_TIME';
  if (event.type === 'inbound') {
    if (!/^\+\d{8,15}$/.test(event.from)) return 'EVENT_BAD_NUMBER';
    if (firstDisallowedCharacter(event.text) !== -1) return 'EVENT_UNSANITIZED_TEXT';
  } else if (!/^[\x21-\x7e]{1,256}$/.test(event.providerMessageId)) return 'EVENT_BAD_ID';
  return undefined;
}

/** Every carrier webhook, fed deliveries a forger or a broken carrier could send. */
describe('fuzzing the carrier webhooks (signed, unsigned and forged deliveries)', () => {
  let whatsapp: { provider: ChannelProvider; server: WebhookServer; events: ProviderEvent[] };
  let rcs: { provider: ChannelProvider; server: WebhookServer; events: ProviderEvent[] };

  beforeAll(async () => {
    const wa = createWhatsAppProvider({
      mode: 'simulator',
      config: {
        apiUrl: 'http://127.0.0.1:9',
        apiVersion: 'v21.0',
        phoneNumberId: WHATSAPP_PHONE_NUMBER_ID,
        accessToken: 't',
        appSecret: APP_SECRET,
        verifyToken: 'v',
        messagesPerSecond: 80,
      },
    });
    const rb = createRcsProvider({
      mode: 'simulator',
      config: {
        apiUrl: 'http://127.0.0.1:9',
        agentId: RCS_AGENT_ID,
        serviceAccountFile: '/nonexistent',
        webhookToken: CLIENT_TOKEN,
        messagesPerSecond: 100,
      },
    });
    whatsapp = { provider: wa, server: await serveWebhooks('whatsapp', wa.webhooks), events: [] };
    rcs = { provider: rb, server: await serveWebhooks('rcs', rb.webhooks), events: [] };
    for (const side of [whatsapp, rcs]) {
      side.provider.onEvent(async (event) => {
        side.events.push(event);
        if (side.events.length > 1000) side.events.splice(0, 500);
      });
    }
  });
  afterAll(async () => {
    await whatsapp?.server.close();
    await rcs?.server.close();
  });

  /** Sends one delivery; an unsigned or forged one must be 401 (or too large) and emit nothing. */
  async function deliver(
    side: typeof whatsapp,
    url: string,
    body: Buffer,
    how: Signing,
    signature: string | undefined,
  ): Promise<FuzzOutcome> {
    const before = side.events.length;
    const headerName = side === whatsapp ? 'x-hub-signature-256' : 'x-goog-signature';
    const res = await side.server.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/json', ...(signature ? { [headerName]: signature } : {}) },
    });
    const emitted = side.events.slice(before);
    if (how !== 'valid' && emitted.length > 0) return { refused: 'UNSIGNED_DELIVERY_EMITTED' };
    for (const event of emitted) {
      const problem = eventProblem(event);
      if (problem) return { refused: problem };
    }
    if (res.statusCode === 200) return { accepted: true };
    const code = (res.json() as { code?: string }).code ?? `HTTP_${res.statusCode}`;
    if (how !== 'valid' && res.statusCode !== 401 && res.statusCode !== 400 && res.statusCode !== 413) {
      return { refused: `UNSIGNED_GOT_${res.statusCode}` };
    }
    return { refused: code };
  }

  it('WhatsApp notifications: each is taken, or refused with a webhook code; forgeries never emit', async () => {
    const inputs = fc.record({
      body: fc.oneof(
        { weight: 6, arbitrary: mutated(whatsappNotificationBytes) },
        { weight: 1, arbitrary: randomBytes },
      ),
      how: signing,
    });
    const feed = ({ body, how }: { body: Buffer; how: Signing }) => {
      const signature =
        how === 'valid'
          ? signWhatsAppBody(APP_SECRET, body)
          : how === 'wrong'
            ? signWhatsAppBody('forger', body)
            : undefined;
      return deliver(whatsapp, '/api/webhooks/whatsapp/events', body, how, signature);
    };
    const result = await fuzz({ name: 'WhatsApp webhook', inputs, feed, codes: WEBHOOK_CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(50);
  }, 120_000);

  it('WhatsApp handshakes: hostile query strings get the challenge only with the right token', async () => {
    const value = fc.oneof(
      fc.constantFrom('subscribe', 'v', '1158201444'),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    // Mostly Meta's own handshake with one part changed, repeated or missing.
    const part = (name: string, right: string) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constant([[name, right]] as [string, string][]) },
        { weight: 1, arbitrary: value.map((v) => [[name, v]] as [string, string][]) },
        {
          weight: 1,
          arbitrary: value.map(
            (v) =>
              [
                [name, right],
                [name, v],
              ] as [string, string][],
          ),
        },
        { weight: 1, arbitrary: fc.constant([] as [string, string][]) },
      );
    const inputs = fc
      .tuple(part('hub.mode', 'subscribe'), part('hub.verify_token', 'v'), part('hub.challenge', '1158201444'), value)
      .map(([mode, token, challenge, extra]) => [...mode, ...token, ...challenge, ['x', extra]] as [string, string][]);
    const feed = async (pairs: [string, string][]): Promise<FuzzOutcome> => {
      const query = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      const res = await whatsapp.server.app.inject({ method: 'GET', url: `/api/webhooks/whatsapp/events?${query}` });
      if (res.statusCode !== 200)
        return { refused: (res.json() as { code?: string }).code ?? `HTTP_${res.statusCode}` };
      const sent = new URLSearchParams(query);
      const rightToken = sent.getAll('hub.verify_token').length === 1 && sent.get('hub.verify_token') === 'v';
      return rightToken && res.body === sent.get('hub.challenge')
        ? { accepted: true }
        : { refused: 'CHALLENGE_WITHOUT_TOKEN' };
    };
    const codes = ['WEBHOOK_VERIFY_TOKEN_INVALID', 'WEBHOOK_CHALLENGE_INVALID'];
    const result = await fuzz({ name: 'WhatsApp handshake', inputs, feed, codes }, BUDGET);
    expect(result.runs).toBeGreaterThan(50);
  }, 120_000);

  it('RBM deliveries: hostile envelopes and hostile payloads behind a valid signature', async () => {
    const envelope = (payload: Buffer) =>
      Buffer.from(JSON.stringify({ message: { data: payload.toString('base64'), messageId: '1' } }));
    const inputs = fc.record({
      // The payload mutated inside a well-formed envelope (the signature can still be right), or the envelope itself.
      body: fc.oneof(
        { weight: 3, arbitrary: mutated(rbmPayloadBytes).map(envelope) },
        { weight: 3, arbitrary: mutated(rbmPayloadBytes.map(envelope)) },
        { weight: 1, arbitrary: randomBytes },
      ),
      how: signing,
    });
    const feed = ({ body, how }: { body: Buffer; how: Signing }) => {
      let data = Buffer.alloc(0);
      try {
        const parsed = JSON.parse(body.toString('utf8'));
        if (typeof parsed?.message?.data === 'string') data = Buffer.from(parsed.message.data, 'base64');
      } catch {}
      const signature =
        how === 'valid' ? signRcsData(CLIENT_TOKEN, data) : how === 'wrong' ? signRcsData('forger', data) : undefined;
      return deliver(rcs, '/api/webhooks/rcs/events', body, how, signature);
    };
    const result = await fuzz({ name: 'RBM webhook', inputs, feed, codes: WEBHOOK_CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(50);
  }, 120_000);
});
