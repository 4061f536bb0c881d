/**
 * What a campaign sends, channel by channel: the checks that must pass before it starts (each a
 * `{code, message}` problem the wizard translates) and the rendering of one recipient's message
 * with the lists' variables. The SMS parts counted here are the credits the recipient costs.
 */
import { randomBytes } from 'node:crypto';
import {
  analyzeSms,
  type CampaignContent,
  type CampaignProblem,
  type Channel,
  campaignProblem,
  renderVariables,
  TRACKED_LINK_CODE_LENGTH,
  TRACKED_LINK_VARIABLE,
  variablesIn,
} from '@ecoa/shared';
import type { OutboundContent, VoicePrompt } from '../channels/index.ts';

/** What keeps a campaign from starting (`CAMPAIGN_PROBLEMS` in @ecoa/shared). */
export type ContentProblem = CampaignProblem;

/** One recipient's values for the variables: `nome`, `telefone` and the lists' columns. */
export type RecipientValues = Record<string, string | null | undefined>;

/** The most parts one SMS may take (1,600 characters of GSM-7 need 11). */
export const MAX_SMS_PARTS = 11;

/** Whether the campaign's content is complete for its channel; `[]` when it can start. */
export function contentProblems(channel: Channel, content: CampaignContent): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const voice = (prompt: { audioId?: string; tts?: string } | undefined) => {
    if (prompt?.audioId && prompt.tts) problems.push(campaignProblem('VOICE_PROMPT_AMBIGUOUS'));
    else if (!prompt?.audioId && !prompt?.tts?.trim()) problems.push(campaignProblem('VOICE_PROMPT_REQUIRED'));
  };
  switch (channel) {
    case 'sms_short':
    case 'sms_flash':
      if (!content.text?.trim()) problems.push(campaignProblem('TEXT_REQUIRED'));
      break;
    case 'voice_torpedo':
      voice(content);
      break;
    case 'ura':
      voice(content.menu);
      break;
    case 'whatsapp':
      if (!content.template) problems.push(campaignProblem('TEMPLATE_REQUIRED'));
      break;
    case 'rcs':
      if (content.text?.trim() && content.card) problems.push(campaignProblem('RCS_CONTENT_AMBIGUOUS'));
      else if (!content.text?.trim() && !content.card) problems.push(campaignProblem('RCS_CONTENT_REQUIRED'));
      break;
  }
  const linkText = channel === 'sms_short' || channel === 'sms_flash' || (channel === 'rcs' && !content.card);
  const usesLink = linkText && variablesIn(content.text ?? '').includes(TRACKED_LINK_VARIABLE);
  if (usesLink && !content.trackedLink) problems.push(campaignProblem('TRACKED_LINK_MISSING'));
  if (content.trackedLink && !usesLink) problems.push(campaignProblem('TRACKED_LINK_UNUSED'));
  return problems;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A recipient's tracked-link code: random base62 (62^10 ≈ 8·10^17, so codes never collide in practice). */
export function newShortCode(): string {
  const bytes = randomBytes(TRACKED_LINK_CODE_LENGTH * 2);
  let code = '';
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  for (const b of bytes) if (b < 248 && code.length < TRACKED_LINK_CODE_LENGTH) code += BASE62[b % 62];
  return code.length === TRACKED_LINK_CODE_LENGTH ? code : newShortCode();
}

/** The audio a voice or URA campaign plays, if it plays one (the audios module must not delete it). */
export function audioIdOf(channel: Channel, content: CampaignContent): string | undefined {
  if (channel === 'voice_torpedo') return content.audioId;
  if (channel === 'ura') return content.menu?.audioId;
  return undefined;
}

/** Whether any text of the content uses a variable (else every recipient gets the same message). */
export function usesVariables(content: CampaignContent): boolean {
  const texts = [
    content.text,
    content.tts,
    content.menu?.tts,
    content.card?.title,
    content.card?.description,
    ...(content.template?.params ?? []),
  ];
  return texts.some((t) => t && variablesIn(t).length > 0);
}

export type RenderedMessage = { content: OutboundContent; parts: number };

/**
 * One recipient's message. An uploaded audio is a placeholder here (`audio:<id>`): its playback
 * link expires, so the dispatcher signs a fresh one when the call is made (`withAudioUrl`).
 */
export function renderMessage(
  channel: Channel,
  content: CampaignContent,
  values: RecipientValues,
  campaignId: string,
): RenderedMessage {
  const r = (text: string) => renderVariables(text, values);
  const prompt = (p: { audioId?: string; tts?: string } | undefined): VoicePrompt =>
    p?.audioId ? { audioUrl: `audio:${p.audioId}` } : { tts: r(p?.tts ?? '') };
  switch (channel) {
    case 'sms_short':
    case 'sms_flash': {
      const text = r(content.text ?? '');
      return { content: { kind: 'sms', text, flash: channel === 'sms_flash' }, parts: analyzeSms(text).parts.length };
    }
    case 'voice_torpedo':
      return { content: { kind: 'voice', prompt: prompt(content) }, parts: 1 };
    case 'ura':
      return {
        content: {
          kind: 'ura',
          prompt: prompt(content.menu),
          options: content.options?.length ? content.options : ['1', '2'],
          ...(content.integrationUrl ? { integrationUrl: content.integrationUrl } : {}),
          campaignId,
        },
        parts: 1,
      };
    case 'whatsapp': {
      const t = content.template!;
      return {
        content: { kind: 'whatsapp', template: { name: t.name, language: t.language, params: t.params.map(r) } },
        parts: 1,
      };
    }
    case 'rcs': {
      const card = content.card
        ? {
            ...content.card,
            title: r(content.card.title),
            ...(content.card.description ? { description: r(content.card.description) } : {}),
          }
        : undefined;
      return {
        content: {
          kind: 'rcs',
          ...(card ? { card } : { text: r(content.text ?? '') }),
          ...(content.suggestions ? { suggestions: content.suggestions } : {}),
        },
        parts: 1,
      };
    }
  }
}

/** The audio placeholder of a rendered voice/URA message replaced by a freshly signed link. */
export async function withAudioUrl(
  content: OutboundContent,
  sign: (audioId: string) => Promise<string>,
): Promise<OutboundContent> {
  if ((content.kind !== 'voice' && content.kind !== 'ura') || !('audioUrl' in content.prompt)) return content;
  const url = content.prompt.audioUrl;
  if (!url.startsWith('audio:')) return content;
  return { ...content, prompt: { audioUrl: await sign(url.slice('audio:'.length)) } };
}
