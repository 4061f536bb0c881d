/**
 * CSV files as users' tools write them, and as they break: any separator, any encoding (UTF-8
 * with or without BOM, UTF-16 LE/BE, Windows-1252), quoted or not, ragged rows, cells with NUL,
 * control characters, lone surrogates, emoji, quotes, separators, line breaks, formulas, and
 * now and then a huge field.
 */
import fc from 'fast-check';

const phone = fc
  .tuple(fc.integer({ min: 11, max: 99 }), fc.integer({ min: 0, max: 99_999_999 }), fc.boolean())
  .map(([ddd, n, mobile]) => `(${ddd}) ${mobile ? '9' : ''}${String(n).padStart(8, '0')}`);

const tricky = fc.constantFrom(
  '',
  '"',
  '""',
  ';',
  ',',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u0000',
  '\u0007\u001b[31m',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\ufffe',
  '=cmd|"/c calc"!A1',
  '+55 11 91234-5678',
  'José Conceição',
  '北京',
  '😀👍🏽',
  '\\N',
);

const cell: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: phone },
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 3, arbitrary: tricky },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)) },
);

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;

export const csvText: fc.Arbitrary<string> = fc
  .record({
    header: fc.boolean(),
    separator: fc.constantFrom(';', ',', '\t', '|'),
    newline: fc.constantFrom('\n', '\r\n', '\r'),
    quoteAll: fc.boolean(),
    rows: fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 0, maxLength: 40 }),
  })
  .map(({ header, separator, newline, quoteAll, rows }) => {
    const lines = rows.map((row) =>
      row.map((c) => (quoteAll || /["\r\n;,\t|]/.test(c) ? quote(c) : c)).join(separator),
    );
    if (header) lines.unshift(['telefone', 'nome', 'cidade'].join(separator));
    return lines.join(newline);
  });

/** The text in one of the encodings CSV files arrive in. */
export const csvBytes: fc.Arbitrary<Buffer> = fc
  .tuple(csvText, fc.constantFrom('utf-8', 'utf-8-bom', 'utf-16le-bom', 'utf-16be-bom', 'utf-16le', 'windows-1252'))
  .map(([text, encoding]) => {
    switch (encoding) {
      case 'utf-8-bom':
        return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
      case 'utf-16le-bom':
        return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      case 'utf-16be-bom':
        return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
      case 'utf-16le':
        return Buffer.from(text, 'utf16le');
      case 'windows-1252':
        return Buffer.from(text, 'latin1');
      default:
        return Buffer.from(text, 'utf8');
    }
  });
