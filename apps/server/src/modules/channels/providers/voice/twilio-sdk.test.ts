/**
 * Twilio's own Node library as the outside peer: callbacks signed by it
 * (`getExpectedTwilioSignature`) are heard by our voice webhook routes, forged ones are refused,
 * our signer (the simulator's) agrees with its `validateRequest`, and the create-call request our
 * calls API client sends is the one the library sends for the same call (both captured on a local
 * HTTP server).
 */
import type http from 'node:http';
import fc from 'fast-check';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../../../../../test/loopback-server.test-support.ts';
import { encodeCallScript } from './call-script.ts';
import { createCall } from './calls-api.ts';
import { twilioSignature } from './twilio-signature.ts';
import { openVoiceRig, postCallback as post, type VoiceRig } from './voice.test-support.ts';
import { callWebhookUrl } from './voice.webhooks.ts';

const CALL_SID = `CA${'cd'.repeat(16)}`;
const MENU = encodeCallScript({
  prompt: { tts: 'Tecle 1 para falar conosco' },
  menu: { options: ['1', '2'], timeoutSeconds: 5 },
});
const TORPEDO = encodeCallScript({ prompt: { tts: 'Promoção de hoje' } });

/** A status callback as Twilio posts it (its parameter names, each once). */
const statusParams = (status: string): Record<string, string> => ({
  AccountSid: `AC${'0'.repeat(32)}`,
  ApiVersion: '2010-04-01',
  CallSid: CALL_SID,
  CallStatus: status,
  CallDuration: '23',
  Called: '+5511987654321',
  Caller: '+551130000000',
  Direction: 'outbound-api',
  From: '+551130000000',
  To: '+5511987654321',
  ToCity: 'SÃO PAULO',
  SequenceNumber: '3',
  Timestamp: 'Thu, 26 Nov 2026 17:00:00 +0000',
});

describe('voice webhooks and the twilio library', () => {
  let rig: VoiceRig;
  let token: string;

  openVoiceRig((opened) => ({ rig, token } = opened));

  it('hears status, gather and TwiML callbacks signed by twilio.getExpectedTwilioSignature', async () => {
    const status = callWebhookUrl(rig.app.publicUrl, 'm-sdk', 'status');
    const completed = statusParams('completed');
    const heard = await post(status, completed, twilio.getExpectedTwilioSignature(token, status, completed));
    expect(heard.status).toBe(204);
    expect(rig.events).toEqual([
      expect.objectContaining({ providerMessageId: CALL_SID, status: 'delivered', detail: { durationSeconds: 23 } }),
    ]);

    const gather = callWebhookUrl(rig.app.publicUrl, 'm-sdk', 'gather', { script: MENU, attempt: '1' });
    const pressed = { ...statusParams('in-progress'), Digits: '2', FinishedOnKey: '' };
    const menu = await post(gather, pressed, twilio.getExpectedTwilioSignature(token, gather, pressed));
    expect(menu.status).toBe(200);
    expect(rig.events.at(-1)).toMatchObject({ status: 'sent', detail: { digits: '2' } });

    const twiml = callWebhookUrl(rig.app.publicUrl, 'm-sdk', 'twiml', { script: TORPEDO });
    const answered = statusParams('in-progress');
    const play = await post(twiml, answered, twilio.getExpectedTwilioSignature(token, twiml, answered));
    expect(play).toMatchObject({ status: 200, text: expect.stringContaining('Promoção de hoje') });
  });

  it('refuses, as twilio.validateRequest does, callbacks forged in every way', async () => {
    const status = callWebhookUrl(rig.app.publicUrl, 'm-forged', 'status');
    const params = statusParams('completed');
    const genuine = twilio.getExpectedTwilioSignature(token, status, params);
    const forgeries: [string, string, Record<string, string>, string | null][] = [
      ['another auth token', status, params, twilio.getExpectedTwilioSignature(`${token}x`, status, params)],
      ['a parameter changed after signing', status, { ...params, CallStatus: 'busy' }, genuine],
      ['a parameter added after signing', status, { ...params, Digits: '1' }, genuine],
      ['signed for another URL', callWebhookUrl(rig.app.publicUrl, 'm-other', 'status'), params, genuine],
      ['signed without the query', status, params, twilio.getExpectedTwilioSignature(token, status.split('?')[0]!, {})],
      ['no signature', status, params, null],
    ];
    for (const [name, url, sent, signature] of forgeries) {
      expect(twilio.validateRequest(token, signature ?? '', url, sent), name).toBe(false);
      expect((await post(url, sent, signature)).status, name).toBe(401);
    }
    expect(rig.events).toEqual([]);
    // The control: the same request, genuinely signed, is heard.
    expect(twilio.validateRequest(token, genuine, status, params)).toBe(true);
    expect((await post(status, params, genuine)).status).toBe(204);
  });

  it('signs exactly as the twilio library does, for any URL and form (our signer is the simulator’s)', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,11}$/);
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.string({ maxLength: 20, unit: 'grapheme' }), { maxKeys: 8 }),
        fc.webUrl({ withQueryParameters: true }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (params, url, authToken) => {
          const ours = twilioSignature(authToken, url, Object.entries(params));
          expect(ours).toBe(twilio.getExpectedTwilioSignature(authToken, url, params));
          expect(twilio.validateRequest(authToken, ours, url, params)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

type Captured = { method: string; path: string; headers: http.IncomingHttpHeaders; form: [string, string][] };

/** An HTTP server that records each request and answers as Twilio does when it creates a call. */
async function capturingCarrier() {
  const captured: Captured[] = [];
  const server = await startLoopbackServer((request, body, response) => {
    captured.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      form: [...new URLSearchParams(body).entries()],
    });
    response
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ sid: `CA${'ef'.repeat(16)}`, status: 'queued' }));
  });
  return { ...server, captured };
}

describe('the calls API request, ours and the twilio library’s', () => {
  it('sends the same method, path, credentials, content type and form for the same call', async () => {
    const carrier = await capturingCarrier();
    try {
      const accountSid = `AC${'1a'.repeat(16)}`;
      const authToken = 'token-0123456789abcdef0123456789ab';
      const call = {
        to: '+5511987654321',
        from: '+551130000000',
        twimlUrl: 'https://ecoa.example/api/webhooks/voice/calls/m1/twiml?script=abc',
        statusCallbackUrl: 'https://ecoa.example/api/webhooks/voice/calls/m1/status',
        ringTimeoutSeconds: 30,
        timeLimitSeconds: 120,
      };
      await createCall({ apiUrl: carrier.url, accountSid, authToken, requestTimeoutMs: 5000 }, call);

      // The library's own HTTP client, sent to the local server instead of api.twilio.com.
      const httpClient = new twilio.RequestClient();
      const send = httpClient.request.bind(httpClient);
      httpClient.request = ((opts: Parameters<typeof send>[0]) =>
        send({ ...opts, uri: opts.uri.replace('https://api.twilio.com', carrier.url) })) as typeof send;
      const client = twilio(accountSid, authToken, { httpClient });
      await client.calls.create({
        to: call.to,
        from: call.from,
        url: call.twimlUrl,
        method: 'POST',
        statusCallback: call.statusCallbackUrl,
        statusCallbackMethod: 'POST',
        statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
        timeout: call.ringTimeoutSeconds,
        timeLimit: call.timeLimitSeconds,
      });

      expect(carrier.captured).toHaveLength(2);
      const [ours, theirs] = carrier.captured as [Captured, Captured];
      expect(ours.method).toBe(theirs.method);
      expect(ours.path).toBe(theirs.path);
      expect(ours.path).toBe(`/2010-04-01/Accounts/${accountSid}/Calls.json`);
      expect(ours.headers.authorization).toBe(theirs.headers.authorization);
      expect(ours.headers['content-type']).toBe(theirs.headers['content-type']);
      const sorted = (form: [string, string][]) =>
        [...form].sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y));
      expect(sorted(ours.form)).toEqual(sorted(theirs.form));
    } finally {
      await carrier.close();
    }
  });
});
