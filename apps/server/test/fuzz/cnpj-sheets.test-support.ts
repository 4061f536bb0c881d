/**
 * Spreadsheets of CNPJs as customers send them for enrichment, and as they break: numeric CNPJs
 * masked or bare, alphanumeric ones (the Receita's form from July 2026) in any case, numbers that
 * lost their leading zeros in Excel, wrong check digits, repeated same digits, junk; headers that
 * say "CNPJ" or hide it (formulas, NUL, a BOM, huge, a CNPJ itself) or no header at all; CSV in
 * the usual encodings or XLSX. Each generated sheet knows what a correct reading finds in its
 * CNPJ column (`expect`), when the sheet is clean enough for that to be unambiguous.
 */
import { cnpjCheckDigits } from '@ecoa/shared';
import fc from 'fast-check';
import { inlineRow, sheetXml, xlsxBuffer } from '../xlsx-builder.test-support.ts';

/** A CNPJ cell: its text, and the 14 canonical characters a reader must find in it (null: not a CNPJ). */
export type CnpjCell = { text: string; cnpj: string | null; number?: number };

const DIGITS = '0123456789';
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const chars = (alphabet: string, length: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length }).map((a) => a.join(''));

const mask = (c: string) => `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;

/** A few CNPJs the seeded base holds (so some lookups hit, with and without phones). */
export function baseCnpjs(): { cnpj: string; phones: string[] }[] {
  const first12 = ['112223330001', '112223330002', '445556660001', '12ABC34501DE', '00012345000A', '000987650001'];
  return first12.map((f, i) => ({
    cnpj: `${f}${cnpjCheckDigits(f)}`,
    phones: i % 2 === 0 ? [`+55119876500${String(i).padStart(2, '0')}`] : [],
  }));
}

const known = fc.constantFrom(...baseCnpjs().map((b) => b.cnpj));
const numericCnpj = chars(DIGITS, 12).map((f) => `${f}${cnpjCheckDigits(f)}`);
const alphanumericCnpj = chars(ALNUM, 12).map((f) => `${f}${cnpjCheckDigits(f)}`);
const anyCnpj = fc.oneof({ weight: 2, arbitrary: known }, numericCnpj, alphanumericCnpj);

/** A valid CNPJ written one of the ways people write it. */
const validCell: fc.Arbitrary<CnpjCell> = fc
  .tuple(anyCnpj, fc.constantFrom('bare', 'masked', 'lower', 'spaced', 'padded', 'number'))
  .map(([cnpj, style]): CnpjCell => {
    switch (style) {
      case 'masked':
        return { text: mask(cnpj), cnpj };
      case 'lower':
        return { text: mask(cnpj).toLowerCase(), cnpj };
      case 'spaced':
        return { text: `  ${cnpj.slice(0, 8)} ${cnpj.slice(8)}\t`, cnpj };
      case 'padded':
        return { text: `'${cnpj}`, cnpj };
      case 'number': {
        // Excel keeps a numeric CNPJ as a number: up to three leading zeros come back.
        if (!/^\d+$/.test(cnpj) || /^0{4}/.test(cnpj)) return { text: cnpj, cnpj };
        return { text: String(Number(cnpj)), cnpj, number: Number(cnpj) };
      }
      default:
        return { text: cnpj, cnpj };
    }
  });

const invalidCell: fc.Arbitrary<CnpjCell> = fc.oneof(
  // Wrong check digits.
  fc.tuple(anyCnpj, fc.integer({ min: 1, max: 99 })).map(([c, d]) => ({
    text: `${c.slice(0, 12)}${String((Number(c.slice(12)) + d) % 100).padStart(2, '0')}`,
    cnpj: null,
  })),
  fc
    .constantFrom(
      '00000000000000',
      '11.111.111/1111-11',
      '1234567800019',
      '123456780001955',
      'ABCDEFGHIJKLMN',
      '12ABC34501DEAB',
      'CNPJ',
      'n/a',
    )
    .map((text) => ({ text, cnpj: null })),
  fc.string({ maxLength: 20 }).map((text) => ({ text, cnpj: null as string | null })),
);

const blankCell: fc.Arbitrary<CnpjCell> = fc.constantFrom('', '   ').map((text) => ({ text, cnpj: null }));

/** Cells no CSV writer can write unambiguously, and text no database may store as it is. */
const hostileCell: fc.Arbitrary<CnpjCell> = fc
  .oneof(
    fc.constantFrom(
      '"',
      ';',
      ',',
      '\n',
      '\r',
      '\u0000',
      '\u0007\u001b[31m',
      '\ufeff',
      '\ud800',
      '\ufffe',
      '=cmd|"/c calc"!A1',
      // A valid pair cut at a truncation point (the 40 characters an invalid input keeps).
      `${'a'.repeat(39)}😀`,
      `${'1'.repeat(39)}\ud83d\ude00${'2'.repeat(5)}`,
      '北京😀👍🏽',
    ),
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.integer({ min: 1_000, max: 200_000 }).map((n) => '1'.repeat(n)),
  )
  .map((text) => ({ text, cnpj: null }));

const cnpjCell = fc.oneof(
  { weight: 6, arbitrary: validCell },
  { weight: 3, arbitrary: invalidCell },
  { weight: 1, arbitrary: blankCell },
  { weight: 1, arbitrary: hostileCell },
);

/** Text of the other columns: clean (names, cities, phones), or anything. */
const cleanText = fc.constantFrom('ACME LTDA', 'São Paulo', 'José Conceição', '(11) 91234-5678', 'Rua A 12', '');
const otherCell = fc.oneof({ weight: 4, arbitrary: cleanText }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) });

/** The CNPJ column's header: a plain one, hostile ones, or none. */
const header = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('CNPJ', 'cnpj', 'CNPJ da empresa', 'Cnpj/CPF') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '=HYPERLINK("http://x","CNPJ")',
      'CNPJ\u0000',
      '\ufeffCNPJ',
      'C.N.P.J.',
      `CNPJ ${'x'.repeat(5_000)}`,
      '11.222.333/0001-81',
      '北京',
      '😀',
      '',
    ),
  },
  { weight: 2, arbitrary: fc.constant(null) },
);

export type CnpjSheet = {
  header: string | null;
  /** Which column holds the CNPJs, and how many columns there are. */
  column: number;
  width: number;
  rows: { cnpj: CnpjCell; others: string[] }[];
};

export const cnpjSheet: fc.Arbitrary<CnpjSheet> = fc
  .record({
    header,
    width: fc.integer({ min: 1, max: 5 }),
    column: fc.nat(4),
    rows: fc.array(fc.record({ cnpj: cnpjCell, others: fc.array(otherCell, { minLength: 4, maxLength: 4 }) }), {
      minLength: 0,
      maxLength: 60,
    }),
  })
  .map((s) => ({ ...s, column: s.column % s.width }));

/** The sheet's cells, row by row (the header row first when there is one). */
function grid(s: CnpjSheet): string[][] {
  const line = (cnpj: string, others: string[]) => {
    const row = others.slice(0, s.width - 1);
    row.splice(s.column, 0, cnpj);
    return row;
  };
  const rows = s.rows.map((r) => line(r.cnpj.text, r.others));
  if (s.header !== null) rows.unshift(line(s.header, ['Razão social', 'Cidade', 'Telefone', 'Obs']));
  return rows;
}

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;

export function sheetCsv(s: CnpjSheet, separator = ';'): string {
  return grid(s)
    .map((row) => row.map((c) => (/["\r\n;,\t|]/.test(c) ? quote(c) : c)).join(separator))
    .join('\r\n');
}

/** The sheet as an XLSX: inline strings, and numbers where Excel would have kept a number. */
export function sheetXlsx(s: CnpjSheet): Buffer {
  const rows = grid(s).map((cells, r) => {
    const numbered = s.header !== null ? r - 1 : r;
    const number = numbered >= 0 ? s.rows[numbered]?.cnpj.number : undefined;
    if (number === undefined) return inlineRow(r + 1, cells);
    return inlineRow(r + 1, cells).replace(
      new RegExp(`<c r="([A-Z]+${r + 1})" t="inlineStr"><is><t>${String(number)}</t></is></c>`),
      `<c r="$1"><v>${number}</v></c>`,
    );
  });
  return xlsxBuffer({ sheets: [{ xml: sheetXml(rows.join('')) }] });
}

/**
 * What a correct reading finds, when that is unambiguous: a plain "CNPJ" header over the CNPJ
 * column, cells no separator detection can misread, no other column with CNPJs. Else undefined.
 */
export function expectedCounts(
  s: CnpjSheet,
): { total: number; valid: number; invalid: number; duplicates: number } | undefined {
  if (s.header === null || !['CNPJ', 'cnpj', 'CNPJ da empresa', 'Cnpj/CPF'].includes(s.header)) return undefined;
  const clean = (t: string) => /^[\p{L}\p{N} ()'./-]*$/u.test(t) && t.length < 100;
  if (!s.rows.every((r) => clean(r.cnpj.text) && r.others.every(clean))) return undefined;
  const seen = new Set<string>();
  let total = 0;
  let invalid = 0;
  let duplicates = 0;
  for (const { cnpj } of s.rows) {
    if (cnpj.text.trim() === '') continue;
    total++;
    if (cnpj.cnpj === null) invalid++;
    else if (seen.has(cnpj.cnpj)) duplicates++;
    else seen.add(cnpj.cnpj);
  }
  // A sheet whose rows are all blank has no data rows to read.
  if (total === 0) return undefined;
  return { total, valid: seen.size, invalid, duplicates };
}
