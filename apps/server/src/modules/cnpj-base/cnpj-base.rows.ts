/**
 * The Receita's rows → what the CNPJ base keeps. Pure functions: one row of the official layout
 * (no header, `;`-separated, every field quoted, already parsed into fields) in, one record out,
 * or null for a row that cannot be a CNPJ (wrong column count, bad identifier).
 */
import { normalizeBrazilianPhone, sanitizeText } from '@ecoa/shared';

/** Estabelecimentos: 30 columns. The indexes of the ones we read. */
export const ESTABLISHMENT_COLUMNS = 30;
const E = {
  basico: 0,
  ordem: 1,
  dv: 2,
  tradeName: 4,
  situation: 5,
  cnae: 11,
  uf: 19,
  cityCode: 20,
  ddd1: 21,
  phone1: 22,
  ddd2: 23,
  phone2: 24,
  dddFax: 25,
  fax: 26,
  email: 27,
} as const;

/** Empresas: 7 columns (básico, razão social, natureza, qualificação, capital, porte, ente). */
export const COMPANY_COLUMNS = 7;
/** Municipios: 2 columns (código, descrição). */
export const CITY_COLUMNS = 2;

export type EstablishmentRecord = {
  cnpj: string;
  basico: string;
  tradeName: string | null;
  situation: number;
  cnae: string | null;
  uf: string | null;
  city: string | null;
  /** E.164, valid and distinct. */
  phones: string[];
  email: string | null;
};

export type CompanyRecord = { basico: string; companyName: string };

const CNPJ_PATTERN = /^[0-9A-Z]{12}[0-9]{2}$/;
const BASICO_PATTERN = /^[0-9A-Z]{8}$/;

/**
 * A field's text as stored: through the one sanitizer (a NUL or a control character in one field
 * of a several-GB file would otherwise fail the whole import's insert), trimmed.
 */
const clean = (value: string | undefined): string => sanitizeText(value ?? '').trim();

const emptyToNull = (value: string | undefined): string | null => {
  const trimmed = clean(value);
  return trimmed.length > 0 ? trimmed : null;
};

/** The valid phones among (DDD, number) pairs, as E.164, each once. */
export function establishmentPhones(pairs: readonly (readonly [string | undefined, string | undefined])[]): string[] {
  const phones: string[] = [];
  for (const [ddd, number] of pairs) {
    const digits = (number ?? '').trim();
    if (digits.length === 0) continue;
    const result = normalizeBrazilianPhone(`${(ddd ?? '').trim()}${digits}`);
    if (result.ok && !phones.includes(result.e164)) phones.push(result.e164);
  }
  return phones;
}

/** One Estabelecimentos row; `cities` maps the Receita's município codes to names. */
export function toEstablishment(row: string[], cities: ReadonlyMap<string, string>): EstablishmentRecord | null {
  if (row.length !== ESTABLISHMENT_COLUMNS) return null;
  const basico = row[E.basico]!.trim().toUpperCase();
  const cnpj = `${basico}${row[E.ordem]!.trim()}${row[E.dv]!.trim()}`.toUpperCase();
  if (!CNPJ_PATTERN.test(cnpj)) return null;
  const situation = Number.parseInt(row[E.situation]!, 10);
  if (!Number.isInteger(situation) || situation < 0 || situation > 99) return null;
  const cityCode = row[E.cityCode]!.trim();
  const email = emptyToNull(row[E.email]);
  return {
    cnpj,
    basico,
    tradeName: emptyToNull(row[E.tradeName]),
    situation,
    cnae: emptyToNull(row[E.cnae]),
    uf: emptyToNull(row[E.uf])?.toUpperCase() ?? null,
    city: cities.get(cityCode) ?? null,
    phones: establishmentPhones([
      [row[E.ddd1], row[E.phone1]],
      [row[E.ddd2], row[E.phone2]],
      [row[E.dddFax], row[E.fax]],
    ]),
    email: email?.toLowerCase() ?? null,
  };
}

/** One Empresas row: básico → razão social. */
export function toCompany(row: string[]): CompanyRecord | null {
  if (row.length !== COMPANY_COLUMNS) return null;
  const basico = row[0]!.trim().toUpperCase();
  if (!BASICO_PATTERN.test(basico)) return null;
  return { basico, companyName: clean(row[1]) };
}

/** One Municipios row: código → descrição. */
export function toCity(row: string[]): [code: string, name: string] | null {
  if (row.length !== CITY_COLUMNS) return null;
  const code = row[0]!.trim();
  const name = clean(row[1]);
  return code.length > 0 && name.length > 0 ? [code, name] : null;
}

/** "1000,00" → 1000 (capital social; the sample writes it, nothing stores it yet). */
export function parseDecimalComma(value: string): number | null {
  const text = value.trim().replace(/\./g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}
