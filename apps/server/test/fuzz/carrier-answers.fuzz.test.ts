import { generateKeyPairSync, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChannelProvider, ProviderError } from '../../src/modules/channels/provider.ts';
import { listen } from '../../src/modules/channels/providers/http-kit/simulator-kit.ts';
import { createRcsProvider } from '../../src/modules/channels/providers/rcs/rcs.provider.ts';
import { createWhatsAppProvider } from '../../src/modules/channels/providers/whatsapp/whatsapp.provider.ts';
import { tempDir } from '../server.test-support.ts';
import {
  httpStatus,
  RCS_AGENT_ID,
  rcsAnswerBytes,
  tokenAnswerBytes,
  whatsappAnswerBytes,
} from './carriers.test-support.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';

const BUDGET = {
  runs: 400,
  timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000,
  maxRssGrowthMb: 400,
  minRuns: 51,
};

/** What a send reads back from a carrier, hostile: every answer ends in a result or a ProviderError. */
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
