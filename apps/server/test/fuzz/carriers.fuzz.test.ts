import { generateKeyPairSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { firstDisallowedCharacter } from '@ecoa/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelProvider, ProviderError, type ProviderEvent } from '../../src/modules/channels/provider.ts';
import { listen } from '../../src/modules/channels/providers/http-kit/simulator-kit.ts';
import { serveWebhooks, type WebhookServer } from '../../src/modules/channels/providers/http-kit/webhook-server.ts';
import { createRcsProvider } from '../../src/modules/channels/providers/rcs/rcs.provider.ts';
import { signRcsData } from '../../src/modules/channels/providers/rcs/rcs.wire.ts';
import { createWhatsAppProvider } from '../../src/modules/channels/providers/whatsapp/whatsapp.provider.ts';
import { signWhatsAppBody } from '../../src/modules/channels/providers/whatsapp/whatsapp.wire.ts';
import { tempDir } from '../helpers.ts';
import {
  httpStatus,
  RCS_AGENT_ID,
  rbmPayloadBytes,
  rcsAnswerBytes,
  tokenAnswerBytes,
  WHATSAPP_PHONE_NUMBER_ID,
  whatsappAnswerBytes,
  whatsappNotificationBytes,
} from './carriers.ts';
import { type FuzzOutcome, fuzz } from './harness.ts';
import { mutated, randomBytes } from './mutations.ts';

const BUDGET = { runs: 400, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 400 };
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

describe('fuzzing the carrier API answers (what a send reads back)', () => {
  let answer: { status: number; body: Buffer } = { status: 200, body: Buffer.alloc(0) };
  let tokenAnswer: { status: number; body: Buffer } = {
    status: 200,
    body: Buffer.from('{"access_token":"t","expires_in":3600}'),
  };
  let hostile: Awaited<ReturnType<typeof listen>>;
  let keyFile: string;

  beforeAll(async () => {
    hostile = await listen(
      async (request) => {
        const chosen = request.path === '/token' ? tokenAnswer : answer;
        return { status: chosen.status, body: chosen.body, contentType: 'application/json' };
      },
      { host: '127.0.0.1', port: 0 },
    );
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    keyFile = path.join(tempDir('ecoa-fuzz-rcs-'), 'key.json');
    fs.writeFileSync(
      keyFile,
      JSON.stringify({
        type: 'service_account',
        client_email: 'fuzz@ecoa.iam.gserviceaccount.com',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        token_uri: `${hostile.url}/token`,
      }),
    );
  });
  afterAll(async () => {
    await hostile?.close();
  });

  /** A send's end: taken, or a ProviderError whose reason is one of the known families. */
  async function outcome(prefix: string, send: Promise<unknown>): Promise<FuzzOutcome> {
    try {
      await send;
      return { accepted: true };
    } catch (err) {
      if (!(err instanceof ProviderError)) return { refused: `NOT_A_PROVIDER_ERROR: ${String(err)}` };
      if (err.options.retryable && err.options.sentUnknown) return { refused: 'RETRYABLE_AND_SENT_UNKNOWN' };
      if (!err.reason.startsWith(prefix) || !/^[A-Z0-9_]+$/.test(err.reason))
        return { refused: `BAD_REASON ${err.reason}` };
      return {
        refused: err.reason
          .replace(/\d+/g, 'N')
          .replace(
            /^RCS_(?!NOT_CAPABLE|NO_ANSWER|TOKEN_UNAVAILABLE|CREDENTIALS_INVALID|HTTP_N)[A-Z_]+$/,
            'RCS_<STATUS>',
          ),
      };
    }
  }

  const statusAnd = (bytes: fc.Arbitrary<Buffer>) =>
    fc.record({
      status: httpStatus,
      body: fc.oneof({ weight: 6, arbitrary: mutated(bytes) }, { weight: 1, arbitrary: randomBytes }),
    });

  it('Cloud API answers: a wamid, or a ProviderError with a WHATSAPP_ reason', async () => {
    const provider = createWhatsAppProvider({
      mode: 'real',
      messagesPerSecond: 1_000_000,
      config: {
        apiUrl: hostile.url,
        apiVersion: 'v21.0',
        phoneNumberId: '1',
        accessToken: 't',
        appSecret: 's',
        verifyToken: 'v',
        messagesPerSecond: 80,
      },
    });
    const feed = (input: { status: number; body: Buffer }) => {
      answer = input;
      const template = { name: 'aviso', language: 'pt_BR', params: ['x'] };
      const message = {
        id: randomUUID(),
        channel: 'whatsapp',
        to: '+5511999990000',
        content: { kind: 'whatsapp', template },
      } as const;
      return outcome('WHATSAPP_', provider.submit(message));
    };
    const codes = ['WHATSAPP_N', 'WHATSAPP_HTTP_N', 'WHATSAPP_ANSWER_INVALID', 'WHATSAPP_NO_ANSWER'];
    const result = await fuzz(
      { name: 'Cloud API answer', inputs: statusAnd(whatsappAnswerBytes), feed, codes },
      BUDGET,
    );
    expect(result.runs).toBeGreaterThan(50);
  }, 120_000);

  const rcsCodes = [
    'RCS_<STATUS>',
    'RCS_HTTP_N',
    'RCS_NOT_CAPABLE',
    'RCS_NO_ANSWER',
    'RCS_TOKEN_UNAVAILABLE',
    'RCS_CREDENTIALS_INVALID',
  ];
  const rcsSend = (provider: ChannelProvider) =>
    provider.submit({ id: randomUUID(), channel: 'rcs', to: '+5511999990000', content: { kind: 'rcs', text: 'oi' } });
  const rcsProvider = () =>
    createRcsProvider({
      mode: 'real',
      messagesPerSecond: 1_000_000,
      config: {
        apiUrl: hostile.url,
        agentId: RCS_AGENT_ID,
        serviceAccountFile: keyFile,
        webhookToken: 'c',
        messagesPerSecond: 100,
      },
    });

  it('RBM answers: taken, or a ProviderError with an RCS_ reason', async () => {
    const provider = rcsProvider();
    const feed = (input: { status: number; body: Buffer }) => {
      answer = input;
      return outcome('RCS_', rcsSend(provider));
    };
    const result = await fuzz({ name: 'RBM answer', inputs: statusAnd(rcsAnswerBytes), feed, codes: rcsCodes }, BUDGET);
    expect(result.runs).toBeGreaterThan(50);
  }, 120_000);

  it('token endpoint answers: a token, or RCS_TOKEN_UNAVAILABLE / RCS_CREDENTIALS_INVALID', async () => {
    const feed = (input: { status: number; body: Buffer }) => {
      tokenAnswer = input;
      answer = { status: 200, body: Buffer.from('{}') };
      // A new provider each time: a token it got would be cached and the endpoint not asked again.
      return outcome('RCS_', rcsSend(rcsProvider()));
    };
    const result = await fuzz(
      { name: 'token answer', inputs: statusAnd(tokenAnswerBytes), feed, codes: rcsCodes },
      BUDGET,
    );
    expect(result.runs).toBeGreaterThan(50);
  }, 120_000);
});
