import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type StatusEvent } from '../../src/modules/channels/provider.ts';
import { encodeCallScript } from '../../src/modules/channels/providers/voice/call-script.ts';
import { readTwiml } from '../../src/modules/channels/providers/voice/simulator/twiml-reader.ts';
import { twilioSignature } from '../../src/modules/channels/providers/voice/twilio-signature.ts';
import { createVoiceProvider } from '../../src/modules/channels/providers/voice/voice.provider.ts';
import {
  startVoiceRig,
  torpedo,
  type VoiceRig,
} from '../../src/modules/channels/providers/voice/voice.test-support.ts';
import { callWebhookUrl, VOICE_WEBHOOK_ERRORS } from '../../src/modules/channels/providers/voice/voice.webhooks.ts';
import { type FuzzOutcome, fuzz } from './harness.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';
import { API_STATUSES, apiAnswers, gatherForms, scriptJson, statusForms } from './voice.test-support.ts';

const BUDGET = { runs: 400, timeLimitMs: Number(process.env.FUZZ_SECONDS ?? 20) * 1000, maxRssGrowthMb: 400 };
const MENU = encodeCallScript({ prompt: { tts: 'Tecle 1' }, menu: { options: ['1', '2'], timeoutSeconds: 5 } });
/** The refusals a carrier's request may get; an event the listener could not take is not one (it takes all). */
const WEBHOOK_CODES = Object.keys(VOICE_WEBHOOK_ERRORS).filter((code) => code !== 'VOICE_EVENT_NOT_RECORDED');

/** Every reader of the carrier's input: the webhooks' forms and URLs, the API's answers. */
describe('fuzzing the voice provider', () => {
  let rig: VoiceRig;
  let token: string;

  beforeAll(async () => {
    rig = await startVoiceRig();
    token = rig.simulator.account.authToken;
  });
  afterAll(async () => {
    await rig?.close();
  });

  async function post(url: string, body: Buffer, signature: string | undefined) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature === undefined ? {} : { 'x-twilio-signature': signature }),
      },
      body,
    });
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  }

  /** Signs the bytes as the carrier would have (over the form the adapter will read). */
  const signed = (url: string, body: Buffer) =>
    twilioSignature(token, url, [...new URLSearchParams(body.toString('utf8')).entries()]);

  function outcome(answer: { status: number; body: Buffer }): FuzzOutcome {
    if (answer.status >= 200 && answer.status < 300) return { accepted: true };
    let code = 'NO_CODE';
    try {
      code = JSON.parse(answer.body.toString()).code ?? code;
    } catch {}
    return { refused: answer.status >= 500 ? `HTTP_${answer.status}_${code}` : code };
  }

  /** What reaches the core is always well-formed, whatever came in. */
  function checkEvents(from: number) {
    for (const event of rig.events.slice(from) as StatusEvent[]) {
      expect(event.providerMessageId).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(['sent', 'delivered', 'failed']).toContain(event.status);
      expect(Number.isNaN(event.at.getTime())).toBe(false);
      if (event.detail?.digits !== undefined) expect(event.detail.digits).toMatch(/^[0-9*#]{1,20}$/);
      if (event.detail?.durationSeconds !== undefined) {
        expect(Number.isInteger(event.detail.durationSeconds)).toBe(true);
        expect(event.detail.durationSeconds).toBeLessThanOrEqual(86_400);
      }
    }
  }

  for (const [route, forms] of [
    ['status', statusForms],
    ['gather', gatherForms],
  ] as const) {
    it(`${route} callbacks, signed: each is heard or refused with a specific code`, async () => {
      const url =
        route === 'status'
          ? callWebhookUrl(rig.app.publicUrl, 'fuzz', 'status')
          : callWebhookUrl(rig.app.publicUrl, 'fuzz', 'gather', { script: MENU, attempt: '1' });
      const inputs = fc.oneof({ weight: 6, arbitrary: mutated(forms) }, { weight: 1, arbitrary: randomBytes });
      const feed = async (body: Buffer) => {
        const before = rig.events.length;
        const answer = await post(url, body, signed(url, body));
        checkEvents(before);
        if (answer.status === 200) readTwiml(answer.body, url); // a TwiML answer is well-formed
        return outcome(answer);
      };
      const result = await fuzz({ name: `voice ${route} (signed)`, inputs, feed, codes: WEBHOOK_CODES }, BUDGET);
      expect(result.runs).toBeGreaterThan(10);
    }, 120_000);

    it(`${route} callbacks, signature not matching: 401 and nothing reported`, async () => {
      const url = callWebhookUrl(
        rig.app.publicUrl,
        'fuzz',
        route,
        route === 'gather' ? { script: MENU, attempt: '1' } : {},
      );
      // A genuine callback, signed, then changed on the way (or replaced by noise).
      const [original] = fc.sample(forms, { numRuns: 1, seed: 7 });
      const signature = signed(url, original!);
      const inputs = fc.oneof(
        { weight: 6, arbitrary: mutated(fc.constant(original!)) },
        { weight: 1, arbitrary: randomBytes },
      );
      const feed = async (arrived: Buffer): Promise<FuzzOutcome> => {
        const before = rig.events.length;
        const answer = await post(url, arrived, signature);
        // A change the signature does not see (a repeated pair, reordered pairs) is still genuine.
        if (signed(url, arrived) !== signature) {
          expect(answer.status).toBe(401);
          expect(rig.events.length, 'nothing reported').toBe(before);
        }
        return outcome(answer);
      };
      const result = await fuzz(
        { name: `voice ${route} (bad signatures)`, inputs, feed, codes: WEBHOOK_CODES },
        BUDGET,
      );
      expect(result.runs).toBeGreaterThan(10);
    }, 120_000);
  }

  it('call scripts in signed TwiML URLs: valid TwiML or VOICE_SCRIPT_INVALID', async () => {
    const inputs = fc.oneof({ weight: 6, arbitrary: mutated(scriptJson) }, { weight: 1, arbitrary: randomBytes });
    const form = Buffer.from(`CallSid=CA${'0'.repeat(32)}&CallStatus=in-progress`);
    const feed = async (json: Buffer): Promise<FuzzOutcome> => {
      const url = callWebhookUrl(rig.app.publicUrl, 'fuzz', 'twiml', { script: json.toString('base64url') });
      const answer = await post(url, form, signed(url, form));
      if (answer.status === 200) expect(readTwiml(answer.body, url).length).toBeGreaterThan(0);
      return outcome(answer);
    };
    const result = await fuzz({ name: 'voice TwiML scripts (signed)', inputs, feed, codes: WEBHOOK_CODES }, BUDGET);
    expect(result.runs).toBeGreaterThan(10);
  }, 120_000);

  it("the calls API's answers: a call id, or a ProviderError that says whether the call may exist", async () => {
    let answer: { status: number; body: Buffer } = { status: 500, body: Buffer.alloc(0) };
    const carrier = http.createServer((request, response) => {
      request.resume();
      request.on('end', () =>
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body),
      );
    });
    await new Promise<void>((resolve) => carrier.listen(0, '127.0.0.1', resolve));
    const provider = createVoiceProvider({
      api: { ...rig.simulator.account, apiUrl: `http://127.0.0.1:${(carrier.address() as AddressInfo).port}` },
      publicUrl: rig.app.publicUrl,
      mode: 'real',
      callsPerSecond: 10_000,
    });
    // The first byte picks the status line; the rest is the body.
    const inputs = fc
      .tuple(
        fc.nat({ max: 255 }),
        fc.oneof({ weight: 6, arbitrary: mutated(apiAnswers) }, { weight: 1, arbitrary: randomBytes }),
      )
      .map(([status, body]) => Buffer.concat([Buffer.from([status]), body]));
    const feed = async (input: Buffer): Promise<FuzzOutcome> => {
      const status = API_STATUSES[(input[0] ?? 0) % API_STATUSES.length]!;
      answer = { status, body: input.subarray(1) };
      try {
        const { providerMessageIds } = await provider.submit(torpedo('+5511912345678', { tts: 'Oi' }));
        expect(status === 200 || status === 201).toBe(true);
        expect(providerMessageIds[0]).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        return { accepted: true };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        const { retryable = false, sentUnknown = false } = error.options;
        expect(retryable && sentUnknown, 'never both').toBe(false);
        if (status === 429 || status === 503) expect(retryable).toBe(true);
        if (status < 300 || status >= 500) expect(retryable || sentUnknown, `${status} ${error.reason}`).toBe(true);
        return {
          refused: error.reason
            .replace(/^VOICE_\d+$/, 'VOICE_<code>')
            .replace(/^VOICE_HTTP_\d+$/, 'VOICE_HTTP_<status>'),
        };
      }
    };
    try {
      const codes = ['VOICE_<code>', 'VOICE_HTTP_<status>', 'VOICE_BAD_ANSWER'];
      const result = await fuzz({ name: 'voice calls API answers', inputs, feed, codes }, BUDGET);
      expect(result.runs).toBeGreaterThan(10);
    } finally {
      await provider.close();
      await new Promise<void>((resolve) => carrier.close(() => resolve()));
    }
  }, 120_000);
});
