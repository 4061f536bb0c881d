/**
 * Folders of the Receita's CNPJ files as an import reads them, and as they break: the official
 * layout (cnpj-base.sample-data.ts: latin1, `;`, every field quoted) mutated in the text before
 * zipping (the row reader: quotes, bad latin1, NULs, wrong column counts, huge fields), in the
 * zip's bytes after (the archive reader), as extracted files, or replaced by hostile archives (a
 * deflate bomb, too many entries, random bytes).
 */
import fc from 'fast-check';
import {
  companyFields,
  csvLine,
  establishment,
  SAMPLE_CITIES,
} from '../../src/modules/cnpj-base/cnpj-base.sample-data.ts';
import { repeatedDeflate, zipBuffer } from '../zip-writer.test-support.ts';
import { mutated, randomBytes } from './mutations.test-support.ts';

/** A folder's files: name → bytes. */
export type CnpjFolder = Record<string, Buffer>;

const ZIPS = { cities: 'Municipios.zip', companies: 'Empresas0.zip', establishments: 'Estabelecimentos0.zip' };
const ENTRIES = {
  cities: 'F.K03200$Z.D51108.MUNICCSV',
  companies: 'K3241.K03200Y0.D51108.EMPRECSV',
  establishments: 'K3241.K03200Y0.D51108.ESTABELE',
};
type Kind = keyof typeof ZIPS;
const KINDS = Object.keys(ZIPS) as Kind[];

/** The three files' text (latin1 bytes) for `companies` companies of `seed`, one establishment each. */
function texts(seed: number, companies: number): Record<Kind, Buffer> {
  let cities = '';
  for (const city of SAMPLE_CITIES) cities += csvLine([city.code, city.name]);
  let empresas = '';
  let estabelecimentos = '';
  for (let i = 0; i < companies; i++) {
    empresas += csvLine(companyFields(seed, i));
    estabelecimentos += csvLine(establishment(seed, i, 1).fields);
  }
  return {
    cities: Buffer.from(cities, 'latin1'),
    companies: Buffer.from(empresas, 'latin1'),
    establishments: Buffer.from(estabelecimentos, 'latin1'),
  };
}

const zipped = (kind: Kind, data: Buffer) => zipBuffer([{ name: ENTRIES[kind], data }]);
const zippedFolder = (t: Record<Kind, Buffer>): CnpjFolder =>
  Object.fromEntries(KINDS.map((k) => [ZIPS[k], zipped(k, t[k])]));

const valid = fc
  .record({ seed: fc.integer({ min: 1, max: 1_000 }), companies: fc.integer({ min: 1, max: 40 }) })
  .map(({ seed, companies }) => texts(seed, companies));

/** Row-level damage the Receita's files could plausibly have. */
const rowDamage = fc.constantFrom(
  // A field more or less in some rows (wrong column counts).
  (text: string) => text.replace(/";"/, '";"";"'),
  (text: string) => text.replace(/";"/, ';'),
  // A quote left open: the rest of the file is one field.
  (text: string) => text.replace(/"\n"/, '\n"'),
  // Bytes that are not latin1 text: NUL, C1 controls, UTF-8 sequences, a BOM.
  (text: string) => text.replace(/FICTICIA/, 'FIC\u0000TICIA'),
  (text: string) => text.replace(/FICTICIA/, 'FIC\u0081\u008d\u009dTICIA'),
  (text: string) => `\u00ef\u00bb\u00bf${text}`,
  (text: string) => text.replace(/EMPRESA/g, 'EMPRESA \u00c3\u00a7'),
  // A huge field: under the reader's line limit (stored), and over it (refused).
  (text: string) => text.replace(/FICTICIA/, 'X'.repeat(300_000)),
  (text: string) => text.replace(/FICTICIA/, 'X'.repeat(1_200_000)),
  // Line endings of another system, and no final newline.
  (text: string) => text.replaceAll('\n', '\r\n'),
  (text: string) => text.replaceAll('\n', '\r'),
  (text: string) => text.trimEnd(),
  // A CNPJ of the wrong shape, a situation that is not a number, an absurd one.
  (text: string) => text.replace(/^"\d{8}"/, '"1234567"'),
  (text: string) => text.replace(/^("[^"]*";){5}"\d\d"/, (m) => m.replace(/"\d\d"$/, '"AB"')),
  (text: string) => text.replace(/^("[^"]*";){5}"\d\d"/, (m) => m.replace(/"\d\d"$/, '"99999999999"')),
  // Lower-case alphanumeric identifiers (the July 2026 CNPJs).
  (text: string) => text.replace(/^"(\d{8})"/gm, (_m, b: string) => `"${b.slice(0, 5)}ab${b.slice(7)}"`),
);

/** One file's text damaged (row-level or byte-level), then zipped or left extracted. */
const textDamaged: fc.Arbitrary<CnpjFolder> = fc
  .tuple(valid, fc.constantFrom(...KINDS), fc.boolean(), fc.boolean())
  .chain(([t, kind, rows, extracted]) => {
    const damaged = rows
      ? rowDamage.map((damage) => Buffer.from(damage(t[kind].toString('latin1')), 'latin1'))
      : mutated(fc.constant(t[kind]));
    return damaged.map((bytes) => {
      const next = { ...t, [kind]: bytes };
      if (!extracted) return zippedFolder(next);
      return Object.fromEntries(KINDS.map((k) => [ENTRIES[k], next[k]]));
    });
  });

/** One zip's bytes mutated after zipping (the archive reader). */
const zipDamaged: fc.Arbitrary<CnpjFolder> = fc
  .tuple(valid, fc.constantFrom(...KINDS))
  .chain(([t, kind]) =>
    mutated(fc.constant(zipped(kind, t[kind]))).map((bytes) => ({ ...zippedFolder(t), [ZIPS[kind]]: bytes })),
  );

/** Archives no import should expand or follow. */
const hostileZip: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constant(
    (() => {
      const { compressed, size } = repeatedDeflate(Buffer.alloc(64 * 1024, 0x3b), 2_000, { crc: false });
      return zipBuffer([{ name: ENTRIES.establishments, method: 8, compressed, size }]);
    })(),
  ),
  fc.constant(zipBuffer(Array.from({ length: 40 }, (_, i) => ({ name: `ESTABELE${i}`, data: '"1"\n' })))),
  fc.constant(zipBuffer([])),
  fc.constant(zipBuffer([{ name: 'dir/', data: '' }])),
  fc.constant(zipBuffer([{ name: ENTRIES.establishments, data: 'x', method: 12, compressed: Buffer.from('BZh9') }])),
  randomBytes,
);

const hostile: fc.Arbitrary<CnpjFolder> = fc
  .tuple(valid, fc.constantFrom(...KINDS), hostileZip)
  .map(([t, kind, bytes]) => ({ ...zippedFolder(t), [ZIPS[kind]]: bytes }));

export const cnpjFolders: fc.Arbitrary<CnpjFolder> = fc.oneof(
  { weight: 1, arbitrary: valid.map(zippedFolder) },
  { weight: 5, arbitrary: textDamaged },
  { weight: 3, arbitrary: zipDamaged },
  { weight: 1, arbitrary: hostile },
);
