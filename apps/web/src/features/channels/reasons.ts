import type { TFunction } from 'i18next';

/**
 * A carrier's reason in the user's language: `channels.reasons.<CODE>` for the ones people meet
 * (not a WhatsApp user, busy, no RCS…), else the carrier's family with the code kept, so support
 * can still look it up ("SMS operator code SMPP_UNDELIV_err_001").
 */
export function reasonText(t: TFunction, reason: string): string {
  const known = t(`channels.reasons.${reason}`, { defaultValue: '' });
  if (known) return known;
  const family = /^(SMPP|WHATSAPP|RCS|VOICE)_/.exec(reason)?.[1];
  return t(`channels.reasons.family.${family ?? 'OTHER'}`, { code: reason });
}
