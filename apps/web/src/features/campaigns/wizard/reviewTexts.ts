import type { CampaignEstimate } from '@ecoa/shared';
import type { TFunction } from 'i18next';

/** How many parts each message takes, when more than one: "2 partes" when all take the same. */
export function partsEachText(t: TFunction, { min, max }: CampaignEstimate['partsPerMessage']): string | null {
  if (max <= 1) return null;
  return min === max
    ? t('campaignWizard.review.sms.partsSame', { count: max })
    : t('campaignWizard.review.partsEach', { min, max });
}

/** What removing the accents would take and save ("Sem acentos: 1 parte — economiza 400 créditos."), or null. */
export function withoutAccentsText(
  t: TFunction,
  estimate: Pick<CampaignEstimate, 'parts' | 'withoutAccents'>,
  number: Intl.NumberFormat,
): string | null {
  const plain = estimate.withoutAccents;
  if (!plain) return null;
  const saved = estimate.parts - plain.parts;
  const parts =
    plain.min === plain.max
      ? t('campaignWizard.review.sms.part', { count: plain.max })
      : t('campaignWizard.review.sms.partRange', { min: plain.min, max: plain.max });
  return t('campaignWizard.review.sms.withoutAccents', { parts, count: saved, amount: number.format(saved) });
}
