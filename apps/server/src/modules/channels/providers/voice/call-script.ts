/**
 * What a call plays, carried in the URL of its TwiML (base64url JSON in the `script` query
 * parameter) instead of in memory: the provider keeps nothing per call, so a restart between
 * the submit and the answer loses nothing. The carrier signs the full URL it calls, query
 * included, so nobody can make Ecoa's number play something else; the decoder still checks
 * every field, as it checks any outside input.
 */
import type { VoicePrompt } from '../../provider.ts';

/** An interactive menu (URA): one key, which ones it accepts, how long it waits for it. */
export type CallMenu = { options: string[]; timeoutSeconds: number };
export type CallScript = { prompt: VoicePrompt; menu?: CallMenu };

/** Polly voices speak at most 3,000 bytes of text in one <Say> (Twilio error 13521). */
export const MAX_TTS_BYTES = 3000;
export const MAX_AUDIO_URL_CHARS = 2048;
/** One key per menu (numDigits="1"): the twelve keys of a phone. */
export const MENU_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;
export const MIN_MENU_TIMEOUT_SECONDS = 1;
export const MAX_MENU_TIMEOUT_SECONDS = 30;
/** Longer than any script this module encodes (3,000 bytes of text → about 4,100 characters). */
const MAX_ENCODED_CHARS = 12_000;

/** Why a script cannot be played (a reason code of the ProviderError that refuses the submit). */
export type ScriptProblem = 'VOICE_AUDIO_URL_INVALID' | 'VOICE_TTS_INVALID' | 'VOICE_MENU_INVALID';

/** The first problem of a script, or null when it can be played. */
export function scriptProblem(script: CallScript): ScriptProblem | null {
  const prompt = script.prompt as Partial<Record<'audioUrl' | 'tts', unknown>>;
  if ('audioUrl' in prompt) {
    if (!isAudioUrl(prompt.audioUrl) || 'tts' in prompt) return 'VOICE_AUDIO_URL_INVALID';
  } else if (!isTts(prompt.tts)) return 'VOICE_TTS_INVALID';
  if (script.menu && !isMenu(script.menu)) return 'VOICE_MENU_INVALID';
  return null;
}

export function encodeCallScript(script: CallScript): string {
  const json: Record<string, unknown> = { ...script.prompt };
  if (script.menu) {
    json.options = script.menu.options;
    json.timeout = script.menu.timeoutSeconds;
  }
  return Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
}

/** The script in `encoded`, or null when it is not one this module wrote. */
export function decodeCallScript(encoded: string | undefined): CallScript | null {
  if (!encoded || encoded.length > MAX_ENCODED_CHARS || !/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { audioUrl, tts, options, timeout, ...rest } = json as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return null;
  let prompt: VoicePrompt;
  if (audioUrl !== undefined && tts === undefined && isAudioUrl(audioUrl)) prompt = { audioUrl };
  else if (tts !== undefined && audioUrl === undefined && isTts(tts)) prompt = { tts };
  else return null;
  if (options === undefined && timeout === undefined) return { prompt };
  const menu = { options, timeoutSeconds: timeout };
  return isMenu(menu) ? { prompt, menu } : null;
}

function isAudioUrl(value: unknown): value is string {
  // Printable ASCII only: the carrier fetches it as written (a signed URL is already encoded).
  if (typeof value !== 'string' || value.length > MAX_AUDIO_URL_CHARS || !/^[\x21-\x7e]+$/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function isTts(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && Buffer.byteLength(value, 'utf8') <= MAX_TTS_BYTES;
}

function isMenu(menu: { options: unknown; timeoutSeconds: unknown }): menu is CallMenu {
  const { options, timeoutSeconds } = menu;
  return (
    Array.isArray(options) &&
    options.every((key) => (MENU_KEYS as readonly unknown[]).includes(key)) &&
    new Set(options).size === options.length &&
    Number.isInteger(timeoutSeconds) &&
    (timeoutSeconds as number) >= MIN_MENU_TIMEOUT_SECONDS &&
    (timeoutSeconds as number) <= MAX_MENU_TIMEOUT_SECONDS
  );
}
