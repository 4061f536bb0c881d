/** What follows from the catalogue: its codes, the families answered without an entry, the translation key. */
import { ERRORS, type ErrorCode } from './catalogue.ts';
import { CAMPAIGN_PROBLEMS, type CampaignProblemCode } from './texts.ts';

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Every way an audio request can fail (the audio upload's fuzz test expects only these). */
export const AUDIO_ERROR_CODES = ERROR_CODES.filter((code) => code.startsWith('AUDIO_'));

/**
 * Codes answered without an entry of their own, documented here so that a scan of the server
 * knows them: the campaign problems (`CAMPAIGN_PROBLEM`), Fastify's own client errors (the error
 * handler passes its `FST_…` code, or `BAD_REQUEST`, with Fastify's status and words), and the
 * carriers' reasons, which are a message's failure reason, never an API error (translated under
 * `channels.reasons`).
 */
export const ERROR_FAMILIES = {
  campaignProblems: { codes: Object.keys(CAMPAIGN_PROBLEMS) as CampaignProblemCode[] },
  fastify: { codes: ['BAD_REQUEST'], prefix: 'FST_' },
  carrierReasons: { prefixes: ['SMPP_', 'VOICE_', 'WHATSAPP_', 'RCS_'] },
} as const;

/** Every code the API can answer the web app with (the families' fixed codes included; no operator's or carrier's). */
export const API_ERROR_CODES: readonly string[] = [
  ...new Set([
    ...ERROR_CODES.filter((c) => c !== 'CAMPAIGN_PROBLEM' && !('audience' in ERRORS[c])),
    ...ERROR_FAMILIES.campaignProblems.codes,
    ...ERROR_FAMILIES.fastify.codes,
  ]),
];

/** The web's translation key of a code. */
export const errorTranslationKey = (code: string) => `errors.codes.${code}`;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}
