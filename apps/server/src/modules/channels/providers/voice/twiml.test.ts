import { describe, expect, it } from 'vitest';
import { decodeCallScript, encodeCallScript, MAX_TTS_BYTES, scriptProblem } from './call-script.ts';
import { readTwiml } from './simulator/twiml-reader.ts';
import { afterKeyTwiml, CALL_PHRASES, escapeXml, menuTwiml, PT_BR_VOICE, torpedoTwiml } from './twiml.ts';

const DOC_URL = 'https://ecoa.test/api/webhooks/voice/calls/m1/twiml';
const read = (xml: string) => readTwiml(Buffer.from(xml), DOC_URL);

describe('TwiML', () => {
  it('escapes the five XML special characters and drops what XML cannot hold', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
    expect(escapeXml('a\u0000b\u0007c\uFFFEd\ud800e')).toBe('abcde');
  });

  it('says TTS text in pt-BR, and it reads back exactly as written', () => {
    const tts = `Olá, <cliente> & "amigo" d'Ávila: ]]> promoção até 10/12 — 50% off`;
    const xml = torpedoTwiml({ tts });
    expect(xml).toContain(`<Say language="pt-BR" voice="${PT_BR_VOICE}">`);
    expect(xml).not.toContain('<cliente>');
    expect(read(xml)).toEqual([{ verb: 'Say', text: tts, language: 'pt-BR', voice: PT_BR_VOICE }]);
  });

  it('plays a signed audio URL with its query intact', () => {
    const audioUrl = 'https://ecoa.test/api/v1/audios/a1/file?expires=1700000000&sig=ab%2Bc';
    const xml = torpedoTwiml({ audioUrl });
    expect(xml).toContain('expires=1700000000&amp;sig=ab%2Bc');
    expect(read(xml)).toEqual([{ verb: 'Play', url: audioUrl }]);
  });

  it('asks an URA menu twice on silence, then says goodbye and hangs up', () => {
    const action = 'https://ecoa.test/api/webhooks/voice/calls/m1/gather?script=abc&attempt=1';
    const verbs = read(menuTwiml({ tts: 'Tecle 1 ou 2' }, { options: ['1', '2'], timeoutSeconds: 6 }, action));
    const gather = {
      verb: 'Gather',
      action,
      method: 'POST',
      numDigits: 1,
      prompts: [{ verb: 'Say', text: 'Tecle 1 ou 2', language: 'pt-BR', voice: PT_BR_VOICE }],
    };
    expect(verbs).toEqual([
      gather,
      gather,
      { verb: 'Say', text: CALL_PHRASES.noAnswer, language: 'pt-BR', voice: PT_BR_VOICE },
      { verb: 'Hangup' },
    ]);
  });

  it('thanks for an accepted key; offers the menu once more after a key it does not accept', () => {
    const menu = { options: ['1', '2'], timeoutSeconds: 5 };
    const thanks = read(afterKeyTwiml({ tts: 'Menu' }, menu, '1', 'https://ecoa.test/g?attempt=2'));
    expect(thanks.map((v) => v.verb)).toEqual(['Say', 'Hangup']);
    const retry = read(afterKeyTwiml({ tts: 'Menu' }, menu, '7', 'https://ecoa.test/g?attempt=2'));
    expect(retry.map((v) => v.verb)).toEqual(['Say', 'Gather', 'Say', 'Hangup']);
    expect(retry[0]).toMatchObject({ text: CALL_PHRASES.invalidOption });
    const last = read(afterKeyTwiml({ tts: 'Menu' }, menu, '7', null));
    expect(last[0]).toMatchObject({ text: CALL_PHRASES.thanks });
  });
});

describe('call scripts in the TwiML URL', () => {
  it('round-trip a torpedo and a menu through base64url JSON', () => {
    const torpedo = { prompt: { audioUrl: 'https://ecoa.test/a.mp3?x=1&y=2' } };
    const ura = { prompt: { tts: 'Tecle 1' }, menu: { options: ['1', '#'], timeoutSeconds: 6 } };
    for (const script of [torpedo, ura]) {
      const encoded = encodeCallScript(script);
      expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCallScript(encoded)).toEqual(script);
    }
    expect(JSON.parse(Buffer.from(encodeCallScript(ura), 'base64url').toString())).toEqual({
      tts: 'Tecle 1',
      options: ['1', '#'],
      timeout: 6,
    });
  });

  it('refuse anything this module did not write', () => {
    const encode = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');
    for (const bad of [
      undefined,
      '',
      'not base64!',
      encode([]),
      encode({}),
      encode({ tts: '' }),
      encode({ tts: 'x', audioUrl: 'https://a.test/x' }),
      encode({ audioUrl: 'javascript:alert(1)' }),
      encode({ audioUrl: 'https://a.test/a b' }),
      encode({ tts: 'x', extra: 1 }),
      encode({ tts: 'x', options: ['12'], timeout: 5 }),
      encode({ tts: 'x', options: ['1', '1'], timeout: 5 }),
      encode({ tts: 'x', options: ['1'], timeout: 0 }),
      encode({ tts: 'x', options: ['1'] }),
      encode({ tts: 'é'.repeat(MAX_TTS_BYTES / 2 + 1) }),
    ]) {
      expect(decodeCallScript(bad), String(bad)).toBeNull();
    }
  });

  it('name the problem of a script that cannot be played', () => {
    expect(scriptProblem({ prompt: { tts: 'ok' } })).toBeNull();
    expect(scriptProblem({ prompt: { tts: ' ' } })).toBe('VOICE_TTS_INVALID');
    expect(scriptProblem({ prompt: { tts: 'a'.repeat(MAX_TTS_BYTES + 1) } })).toBe('VOICE_TTS_INVALID');
    expect(scriptProblem({ prompt: { audioUrl: 'ftp://a.test/x' } })).toBe('VOICE_AUDIO_URL_INVALID');
    expect(scriptProblem({ prompt: { tts: 'ok' }, menu: { options: ['10'], timeoutSeconds: 5 } })).toBe(
      'VOICE_MENU_INVALID',
    );
  });
});
