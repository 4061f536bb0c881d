/**
 * The TwiML documents Ecoa answers a carrier with: what a call plays, and the menu of an URA.
 *
 * The torpedo plays its prompt once. The URA asks inside a <Gather> (one key); on silence it asks
 * once more (a person often misses the first question), then says goodbye and hangs up. A key
 * that the menu does not accept gets one more chance; every key pressed is reported.
 */
import { sanitizeText } from '@ecoa/shared';
import type { VoicePrompt } from '../../provider.ts';
import type { CallMenu } from './call-script.ts';

/** Amazon Polly's Brazilian Portuguese voice, which every Twilio account has. */
export const PT_BR_VOICE = 'Polly.Camila';

/** What Ecoa itself says on a call (pt-BR: the people called are in Brazil). */
export const CALL_PHRASES = {
  thanks: 'Obrigado! Sua resposta foi registrada. Até logo.',
  noAnswer: 'Não recebemos sua resposta. Até logo.',
  invalidOption: 'Opção inválida.',
} as const;

/**
 * Text as XML character data or attribute value: the five special characters escaped, and the
 * characters XML 1.0 cannot hold at all (C0 controls, lone surrogates, U+FFFE/FFFF) dropped.
 */
export function escapeXml(text: string): string {
  return sanitizeText(text, { multiline: true }).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function document(verbs: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs}</Response>`;
}

function say(text: string): string {
  return `<Say language="pt-BR" voice="${PT_BR_VOICE}">${escapeXml(text)}</Say>`;
}

function promptVerb(prompt: VoicePrompt): string {
  return 'audioUrl' in prompt ? `<Play>${escapeXml(prompt.audioUrl)}</Play>` : say(prompt.tts);
}

function gather(prompt: VoicePrompt, menu: CallMenu, actionUrl: string): string {
  return (
    `<Gather input="dtmf" numDigits="1" timeout="${menu.timeoutSeconds}" action="${escapeXml(actionUrl)}" method="POST">` +
    `${promptVerb(prompt)}</Gather>`
  );
}

/** The voice torpedo: the prompt, once; the call ends with the document. */
export function torpedoTwiml(prompt: VoicePrompt): string {
  return document(promptVerb(prompt));
}

/**
 * The URA's menu: asked, asked once more on silence, then goodbye. `actionUrl` receives the key
 * (the <Gather> moves on to the next verb only when no key was pressed).
 */
export function menuTwiml(prompt: VoicePrompt, menu: CallMenu, actionUrl: string): string {
  const ask = gather(prompt, menu, actionUrl);
  return document(`${ask}${ask}${say(CALL_PHRASES.noAnswer)}<Hangup/>`);
}

/** After a key: thanks and goodbye, or, for a key the menu does not accept, the menu once more. */
export function afterKeyTwiml(prompt: VoicePrompt, menu: CallMenu, key: string, retryActionUrl: string | null): string {
  const accepted = menu.options.length === 0 || menu.options.includes(key);
  if (accepted || retryActionUrl === null) return document(`${say(CALL_PHRASES.thanks)}<Hangup/>`);
  return document(
    `${say(CALL_PHRASES.invalidOption)}${gather(prompt, menu, retryActionUrl)}${say(CALL_PHRASES.noAnswer)}<Hangup/>`,
  );
}

/** Ends the call politely (a <Gather> action that came without a key). */
export function goodbyeTwiml(): string {
  return document(`${say(CALL_PHRASES.noAnswer)}<Hangup/>`);
}
