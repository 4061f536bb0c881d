/**
 * The synthetic CNPJ base's building blocks: a seeded random source per row, the cities, and one
 * company's or establishment's fields in the Receita's layout. Clearly fake (EMPRESA FICTICIA…,
 * @exemplo.com.br), deterministic from the seed, with the quirks real files have: accents
 * (latin1), `;` and `"` inside quoted fields, empty and invalid phones, decimal commas.
 */
import { cnpjCheckDigits } from '@ecoa/shared';

/** mulberry32 seeded from (seed, row, salt): each row's values come out the same whatever the order. */
export function rowRandom(seed: number, row: number, salt: number): () => number {
  let a = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(row + 1, 0x85ebca6b) ^ Math.imul(salt + 7, 0xc2b2ae35);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Código (as in Municipios), name, UF and DDD: real places, codes of our own. */
export const SAMPLE_CITIES = [
  { code: '7107', name: 'SÃO PAULO', uf: 'SP', ddd: '11' },
  { code: '6001', name: 'RIO DE JANEIRO', uf: 'RJ', ddd: '21' },
  { code: '4123', name: 'BELO HORIZONTE', uf: 'MG', ddd: '31' },
  { code: '7535', name: 'CURITIBA', uf: 'PR', ddd: '41' },
  { code: '8801', name: 'PORTO ALEGRE', uf: 'RS', ddd: '51' },
  { code: '9701', name: 'BRASÍLIA', uf: 'DF', ddd: '61' },
  { code: '3849', name: 'SALVADOR', uf: 'BA', ddd: '71' },
  { code: '2531', name: 'RECIFE', uf: 'PE', ddd: '81' },
  { code: '1389', name: 'FORTALEZA', uf: 'CE', ddd: '85' },
  { code: '0255', name: 'MANAUS', uf: 'AM', ddd: '92' },
  { code: '2051', name: 'JOÃO PESSOA', uf: 'PB', ddd: '83' },
] as const;

const CNAES = ['4711302', '5611201', '4781400', '4520001', '8630504', '6201501', '4744099', '9602501'];

export type SampleEstablishment = {
  cnpj: string;
  basico: string;
  companyName: string;
  tradeName: string | null;
  situation: number;
  cnae: string;
  uf: string;
  city: string;
  /** What the importer must keep: the valid phones in E.164, each once. */
  phones: string[];
  email: string | null;
};

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
export const csvLine = (fields: readonly string[]) => `${fields.map(quote).join(';')}\n`;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Company `i`'s CNPJ básico: a bijection of i (7919 is prime to 10⁸), shifted by the seed. */
export function sampleBasico(seed: number, i: number): string {
  return pad((i * 7919 + 12_345_678 + seed * 104_729) % 100_000_000, 8);
}

export function sampleCompanyName(i: number): string {
  if (i % 10 === 1) return `JOÃO FICTÍCIO COMÉRCIO ${pad(i, 6)} LTDA`;
  if (i % 25 === 2) return `EMPRESA FICTICIA ${pad(i, 6)}; FILIAL "SUL" LTDA`;
  return `EMPRESA FICTICIA ${pad(i, 6)} LTDA`;
}

/** Empresas: básico, razão social, natureza jurídica, qualificação, capital social, porte, ente federativo. */
export function companyFields(seed: number, i: number): string[] {
  const random = rowRandom(seed, i, 1);
  const capital = `${Math.floor(random() * 500_000)},${pad(Math.floor(random() * 100), 2)}`;
  const porte = ['01', '03', '05'][Math.floor(random() * 3)]!;
  return [sampleBasico(seed, i), sampleCompanyName(i), '2062', '49', capital, porte, ''];
}

type Phone = { ddd: string; number: string; valid: boolean };

/**
 * A valid number: a mobile (9 + 8 digits) or a landline (8 digits, 2–5 first). The second digit
 * is never 0 (no 3003/4004 non-geographic prefix) and the last differs from the first of the
 * last eight (never a `3333-3333` filler), so the shared phone rules accept every one.
 */
function randomPhone(random: () => number, ddd: string): Phone {
  const mobile = random() < 0.5;
  const lead = mobile ? 1 + Math.floor(random() * 9) : 2 + Math.floor(random() * 4);
  const second = 1 + Math.floor(random() * 9);
  const middle = pad(Math.floor(random() * 100_000), 5);
  const body = `${lead}${second}${middle}${(lead + 1) % 10}`;
  return { ddd, number: mobile ? `9${body}` : body, valid: true };
}

/**
 * Establishment `ordem` of company `i`: its 30 fields and what the importer must make of them.
 * Companies 0–3 are fixed cases the tests look for: every phone and `;`/`"` (0), an invalid
 * DDD and an invalid fax (1), nothing optional (2), telefone 2 repeating telefone 1 (3).
 */
export function establishment(
  seed: number,
  i: number,
  ordem: number,
): { fields: string[]; expected: SampleEstablishment } {
  const random = rowRandom(seed, i, 10 + ordem);
  const basico = sampleBasico(seed, i);
  const first12 = `${basico}${pad(ordem, 4)}`;
  const dv = cnpjCheckDigits(first12);
  const city = SAMPLE_CITIES[i < 4 ? i % 3 : Math.floor(random() * SAMPLE_CITIES.length)]!;
  const r = random();
  const situation = r < 0.7 ? 2 : r < 0.85 ? 8 : r < 0.93 ? 4 : r < 0.98 ? 3 : 1;
  const id = pad(i, 6);

  const t = random();
  let tradeName = t < 0.4 ? '' : t < 0.5 ? `PADARIA SÃO JOÃO FICTÍCIA ${id}` : `FICTICIA COMERCIO ${id}`;
  if (i === 0 || (t > 0.95 && t < 0.97)) tradeName = `LOJA A; B "DO ZÉ" FICTICIA ${id}`;
  if (i === 2) tradeName = '';

  let phone1: Phone | undefined =
    random() < 0.6 || i === 0 || i === 1 || i === 3 ? randomPhone(random, city.ddd) : undefined;
  if (i === 1 || (i > 3 && phone1 && random() < 0.03)) phone1 = { ddd: '20', number: '912345678', valid: false };
  let phone2: Phone | undefined = random() < 0.2 || i <= 1 ? randomPhone(random, city.ddd) : undefined;
  if (i === 3 && phone1) phone2 = { ...phone1 };
  if (i === 0 && phone1 && phone2 && phone1.number === phone2.number) phone2 = undefined;
  let fax: Phone | undefined = random() < 0.1 || i <= 1 ? randomPhone(random, city.ddd) : undefined;
  if (fax && (i === 1 || (i > 3 && random() < 0.3))) fax = { ddd: city.ddd, number: '1234', valid: false };
  if (i === 2) phone1 = phone2 = fax = undefined;

  const e = random();
  let email = e < 0.5 ? `contato${id}.${ordem}@exemplo.com.br` : '';
  if (i === 0 || (email && e < 0.05)) email = `Contato${id}.${ordem}@EXEMPLO.COM.BR`;
  if (i === 2) email = '';

  const cnae = CNAES[Math.floor(random() * CNAES.length)]!;
  const year = 1990 + Math.floor(random() * 35);
  const opened = `${year}${pad(1 + Math.floor(random() * 12), 2)}${pad(1 + Math.floor(random() * 28), 2)}`;
  const fields = [
    basico,
    pad(ordem, 4),
    dv,
    ordem === 1 ? '1' : '2',
    tradeName,
    pad(situation, 2),
    opened,
    situation === 2 ? '00' : '01',
    '',
    '',
    opened,
    cnae,
    random() < 0.3 ? `${CNAES[0]},${CNAES[3]}` : '',
    'RUA',
    `DAS FLORES FICTÍCIAS ${id}`,
    String(1 + Math.floor(random() * 2000)),
    random() < 0.2 ? 'SALA 2; FUNDOS' : '',
    'CENTRO',
    pad(Math.floor(random() * 100_000_000), 8),
    city.uf,
    city.code,
    phone1?.ddd ?? '',
    phone1?.number ?? '',
    phone2?.ddd ?? '',
    phone2?.number ?? '',
    fax?.ddd ?? '',
    fax?.number ?? '',
    email,
    '',
    '',
  ];
  const phones: string[] = [];
  for (const p of [phone1, phone2, fax]) {
    const e164 = p?.valid ? `+55${p.ddd}${p.number}` : undefined;
    if (e164 && !phones.includes(e164)) phones.push(e164);
  }
  return {
    fields,
    expected: {
      cnpj: `${first12}${dv}`,
      basico,
      companyName: sampleCompanyName(i),
      tradeName: tradeName || null,
      situation,
      cnae,
      uf: city.uf,
      city: city.name,
      phones,
      email: email ? email.toLowerCase() : null,
    },
  };
}
