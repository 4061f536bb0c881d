import {
  formatCnpj,
  formatPriceBRL,
  PRICE_TABLE_FIELDS,
  type PriceTableKey,
  priceToTenThousandths,
} from '@ecoa/shared';
import type { TFunction } from 'i18next';
import { applyMask, MOBILE_PHONE_MASK } from '../../platform/masks';

/** The spec's masks: CNPJ 99.999.999/9999-99, mobile phone (**) *****-****. */
export const maskCnpj = (digits: string): string => formatCnpj(digits);
export const maskPhone = (digits: string): string => applyMask(MOBILE_PHONE_MASK, digits);

/** The price table's keys, in the order the drawer shows them, with the credit type each one prices. */
export const PRICE_FIELDS: { key: PriceTableKey; type: string }[] = [
  { key: 'smsShort', type: 'SMSSHORT' },
  { key: 'smsFlash', type: 'SMSFLASH' },
  { key: 'whatsapp', type: 'WHATSAPP' },
  { key: 'ura', type: 'URA' },
  { key: 'uraIntegration', type: 'URAINTEGRATION' },
  { key: 'rcs', type: 'RCS' },
  { key: 'enriched', type: 'ENRICHED' },
];
// Every key of the shared price table has its field.
if (PRICE_FIELDS.length !== PRICE_TABLE_FIELDS.length) throw new Error('PRICE_FIELDS is missing a price');

/** A unit price in reais → "R$ 0,0875" (2 to 4 decimals, pt-BR as the product shows money). */
export const formatUnitPrice = (reais: number): string => formatPriceBRL(priceToTenThousandths(reais) ?? 0);

const ENRICHMENT_ALL = 'all';
export const hasEnrichment = (enriched: unknown): boolean =>
  Array.isArray(enriched) && enriched.includes(ENRICHMENT_ALL);
export const enrichmentPermission = (on: boolean): string[] => (on ? [ENRICHMENT_ALL] : []);

/** One line of the audit history, in the reader's language: what changed, from what, to what. */
export function describeChange(t: TFunction, field: string, from: unknown, to: unknown) {
  const yesNo = (v: unknown) => t(v ? 'adminUsers.history.yes' : 'adminUsers.history.no');
  if (field === 'active') return { label: t('adminUsers.history.fields.active'), from: yesNo(from), to: yesNo(to) };
  if (field === 'accessLevel') {
    const level = (v: unknown) => t(`adminUsers.accessLevels.${String(v)}`, { defaultValue: String(v) });
    return { label: t('adminUsers.history.fields.accessLevel'), from: level(from), to: level(to) };
  }
  if (field === 'permissions.enriched') {
    return {
      label: t('adminUsers.history.fields.enrichment'),
      from: yesNo(hasEnrichment(from)),
      to: yesNo(hasEnrichment(to)),
    };
  }
  if (field === 'apiRatePerSecond') {
    const rate = (v: unknown) => (typeof v === 'number' ? `${v}/s` : t('adminUsers.history.defaultRate'));
    return { label: t('adminUsers.history.fields.apiRate'), from: rate(from), to: rate(to) };
  }
  const price = PRICE_FIELDS.find((p) => field === `priceTable.${p.key}`);
  if (price) {
    const show = (v: unknown) => (typeof v === 'number' ? formatUnitPrice(v) : '—');
    return {
      label: t('adminUsers.history.fields.price', { type: t(`credits.types.${price.type}`) }),
      from: show(from),
      to: show(to),
    };
  }
  const raw = (v: unknown) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
  return { label: field, from: raw(from), to: raw(to) };
}
