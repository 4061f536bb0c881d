import { describe, expect, it } from 'vitest';
import { encodeCallScript } from './call-script.ts';
import { twilioSignature } from './twilio-signature.ts';
import { openVoiceRig, postCallback as post, type VoiceRig } from './voice.test-support.ts';
import { callWebhookUrl } from './voice.webhooks.ts';

const CALL_SID = `CA${'ab'.repeat(16)}`;
const TORPEDO = encodeCallScript({ prompt: { tts: 'Oi' } });
const MENU = encodeCallScript({ prompt: { tts: 'Tecle 1' }, menu: { options: ['1'], timeoutSeconds: 5 } });

/** The carrier's callbacks, sent by hand: signed right, signed wrong, or carrying nonsense. */
describe('voice webhooks: only the carrier is heard', () => {
  let rig: VoiceRig;
  let token: string;

  openVoiceRig((opened) => ({ rig, token } = opened));

  const urls = () => ({
    status: callWebhookUrl(rig.app.publicUrl, 'm1', 'status'),
    gather: callWebhookUrl(rig.app.publicUrl, 'm1', 'gather', { script: MENU, attempt: '1' }),
    twiml: callWebhookUrl(rig.app.publicUrl, 'm1', 'twiml', { script: TORPEDO }),
  });
  const forms = {
    status: [
      ['CallSid', CALL_SID],
      ['CallStatus', 'completed'],
      ['CallDuration', '17'],
    ],
    gather: [
      ['CallSid', CALL_SID],
      ['Digits', '1'],
    ],
    twiml: [
      ['CallSid', CALL_SID],
      ['CallStatus', 'in-progress'],
    ],
  } satisfies Record<string, Array<[string, string]>>;

  it('hears a correctly signed callback (the control for the refusals below)', async () => {
    const u = urls();
    const status = await post(u.status, forms.status, twilioSignature(token, u.status, forms.status));
    expect(status.status).toBe(204);
    expect(rig.events).toEqual([
      expect.objectContaining({ providerMessageId: CALL_SID, status: 'delivered', detail: { durationSeconds: 17 } }),
    ]);
    const gather = await post(u.gather, forms.gather, twilioSignature(token, u.gather, forms.gather));
    expect(gather.status).toBe(200);
    expect(rig.events.at(-1)).toMatchObject({ status: 'sent', detail: { digits: '1' } });
    const twiml = await post(u.twiml, forms.twiml, twilioSignature(token, u.twiml, forms.twiml));
    expect(twiml).toMatchObject({ status: 200, text: expect.stringContaining('<Say language="pt-BR"') });
  });

  for (const route of ['status', 'gather', 'twiml'] as const) {
    it(`${route}: a missing, wrong or stale signature answers 401 and reports nothing`, async () => {
      const url = urls()[route];
      const form = forms[route];
      const tampered: Array<[string, string]> = form.map(([k, v]) => [k, k === 'CallSid' ? `${v.slice(0, -1)}0` : v]);
      const otherUrl =
        route === 'twiml'
          ? url.replace(TORPEDO, encodeCallScript({ prompt: { tts: 'Golpe' } }))
          : `${url}${url.includes('?') ? '&' : '?'}x=1`;
      const attempts: Array<[string, Array<[string, string]>, string | null]> = [
        [url, form, null],
        [url, form, ''],
        [url, form, 'not-a-signature'],
        [url, form, twilioSignature('another-token', url, form)],
        [url, tampered, twilioSignature(token, url, form)],
        // Signed for another address: the query (what the call plays) is covered too.
        [otherUrl, form, twilioSignature(token, url, form)],
      ];
      for (const [target, body, signature] of attempts) {
        const answer = await post(target, body, signature);
        expect(answer.status, `${route} ${signature}`).toBe(401);
        expect(JSON.parse(answer.text)).toMatchObject({ code: 'VOICE_SIGNATURE_INVALID' });
      }
      expect(rig.events).toEqual([]);
    });
  }

  it('refuses signed callbacks it cannot read, with a specific code and nothing reported', async () => {
    const u = urls();
    const cases: Array<[string, Array<[string, string]>, string]> = [
      [u.status, [['CallStatus', 'completed']], 'VOICE_CALLBACK_INVALID'],
      [
        u.status,
        [
          ['CallSid', CALL_SID],
          ['CallStatus', 'exploded'],
        ],
        'VOICE_CALLBACK_INVALID',
      ],
      [
        u.status,
        [
          ['CallSid', 'CA<script>'],
          ['CallStatus', 'ringing'],
        ],
        'VOICE_CALLBACK_INVALID',
      ],
      [
        u.gather,
        [
          ['CallSid', CALL_SID],
          ['Digits', '1; DROP'],
        ],
        'VOICE_CALLBACK_INVALID',
      ],
      [u.gather.replace('attempt=1', 'attempt=3'), forms.gather, 'VOICE_SCRIPT_INVALID'],
      [
        callWebhookUrl(rig.app.publicUrl, 'm1', 'gather', { script: TORPEDO, attempt: '1' }),
        forms.gather,
        'VOICE_SCRIPT_INVALID',
      ],
      [callWebhookUrl(rig.app.publicUrl, 'm1', 'twiml', { script: 'e30' }), forms.twiml, 'VOICE_SCRIPT_INVALID'],
      [callWebhookUrl(rig.app.publicUrl, 'm1', 'twiml'), forms.twiml, 'VOICE_SCRIPT_INVALID'],
    ];
    for (const [url, form, code] of cases) {
      const answer = await post(url, form, twilioSignature(token, url, form));
      expect(answer.status, url).toBe(400);
      expect(JSON.parse(answer.text), url).toMatchObject({ code });
    }
    expect(rig.events).toEqual([]);
  });

  it('ends the call politely when the menu action comes without a key', async () => {
    const u = urls();
    const form: Array<[string, string]> = [
      ['CallSid', CALL_SID],
      ['Digits', ''],
    ];
    const answer = await post(u.gather, form, twilioSignature(token, u.gather, form));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('<Hangup/>');
    expect(rig.events).toEqual([]);
  });

  it('refuses a body larger than any callback before reading it', async () => {
    const u = urls();
    const form: Array<[string, string]> = [...forms.status, ['Pad', 'x'.repeat(40_000)]];
    const answer = await post(u.status, form, twilioSignature(token, u.status, form));
    expect(answer.status).toBe(413);
    expect(rig.events).toEqual([]);
  });
});
