/**
 * The estimate's sums over the rendered messages: parts (credits), the fewest and most parts one
 * message takes, what the SMS would take with its accents removed, and the first recipient's
 * message as the wizard's review shows it.
 */
import { analyzeSms, type CampaignEstimate, removeAccents } from '@ecoa/shared';
import type { RenderedMessage } from './campaigns.content.ts';

type Range = { parts: number; min: number; max: number };

const add = (r: Range, parts: number) => {
  r.parts += parts;
  r.min = r.min === 0 ? parts : Math.min(r.min, parts);
  r.max = Math.max(r.max, parts);
};

export function estimateTally() {
  const sent: Range = { parts: 0, min: 0, max: 0 };
  const plain: Range = { parts: 0, min: 0, max: 0 };
  let recipients = 0;
  let example: CampaignEstimate['example'] = null;
  return {
    add(to: string, message: RenderedMessage) {
      recipients++;
      add(sent, message.parts);
      if (message.content.kind !== 'sms') return;
      example ??= { to, text: message.content.text };
      add(plain, analyzeSms(removeAccents(message.content.text)).parts.length);
    },
    result() {
      return {
        recipients,
        parts: sent.parts,
        partsPerMessage: { min: sent.min, max: sent.max },
        example,
        // Only when it saves something: the review then offers "sem acentos: 1 parte — economiza N".
        withoutAccents: plain.parts > 0 && plain.parts < sent.parts ? plain : null,
      };
    },
  };
}
