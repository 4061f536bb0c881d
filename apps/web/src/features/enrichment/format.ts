import { intlLocale } from '../../platform/i18n';

/** "2026-10" → "outubro de 2026" (in the interface's language). */
export function monthName(referenceMonth: string, language: string): string {
  const [year, month] = referenceMonth.split('-').map(Number);
  return new Intl.DateTimeFormat(intlLocale(language), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year!, month! - 1, 1)),
  );
}

/** "11222333000181" → "11.222.333/0001-81" (letters too, the alphanumeric CNPJ). */
export { formatCnpj } from '@ecoa/shared';
