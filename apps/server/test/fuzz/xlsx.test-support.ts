/**
 * XLSX files as generators write them, and as they break: cells of every type (shared and inline
 * strings, numbers, booleans, errors, dates, formulas), sparse or sequential references, 1904
 * workbooks; one XML part mutated before zipping (the reader's XML and cell logic), or the zip's
 * bytes mutated after (the archive reader), or a hostile part (DOCTYPE, unknown entity, a small
 * bomb).
 */
import fc from 'fast-check';
import {
  columnName,
  sharedStringsXml,
  sheetXml,
  stylesXml,
  xlsxBuffer,
  xmlEscape,
} from '../xlsx-builder.test-support.ts';
import { repeatedDeflate, sharedStringsBomb } from '../zip-writer.test-support.ts';
import { mutated } from './mutations.test-support.ts';

type Cell =
  | { t: 's' | 'inlineStr' | 'str'; text: string }
  | { t: 'n'; value: string; style: number }
  | { t: 'b'; value: boolean }
  | { t: 'e' };

const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('(11) 91234-5678', '5511987654321', 'José Conceição', '北京', '😀', '&amp;', ']]>', '_x000D_'),
);

const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.record({ t: fc.constantFrom('s' as const, 'inlineStr' as const, 'str' as const), text }),
  fc.record({
    t: fc.constant('n' as const),
    value: fc.oneof(
      fc.integer({ min: 0, max: 99_999_999_999 }).map(String),
      fc.double({ noNaN: false }).map(String),
      fc.constantFrom('', '1.1912345678E10', '-0', 'abc', '1e400'),
    ),
    style: fc.integer({ min: 0, max: 4 }),
  }),
  fc.record({ t: fc.constant('b' as const), value: fc.boolean() }),
  fc.constant({ t: 'e' as const }),
);

type Book = { rows: Cell[][]; sparse: boolean; date1904: boolean };

const book: fc.Arbitrary<Book> = fc.record({
  rows: fc.array(fc.array(cell, { minLength: 0, maxLength: 6 }), { minLength: 0, maxLength: 25 }),
  sparse: fc.boolean(),
  date1904: fc.boolean(),
});

/** The workbook's parts (path → XML) for a generated book. */
function parts(b: Book): { sheet: string; sharedStrings: string; styles: string } {
  const strings: string[] = [];
  let rows = '';
  b.rows.forEach((cells, r) => {
    let xml = '';
    cells.forEach((c, i) => {
      const col = b.sparse ? i * 2 + (r % 3) : i;
      const ref = ` r="${columnName(col)}${r + 1}"`;
      switch (c.t) {
        case 's':
          strings.push(c.text);
          xml += `<c${ref} t="s"><v>${strings.length - 1}</v></c>`;
          break;
        case 'inlineStr':
          xml += `<c${ref} t="inlineStr"><is><t>${xmlEscape(c.text)}</t></is></c>`;
          break;
        case 'str':
          xml += `<c${ref} t="str"><f>A1&amp;"x"</f><v>${xmlEscape(c.text)}</v></c>`;
          break;
        case 'n':
          xml += `<c${ref} s="${c.style}"><v>${xmlEscape(c.value)}</v></c>`;
          break;
        case 'b':
          xml += `<c${ref} t="b"><v>${c.value ? 1 : 0}</v></c>`;
          break;
        case 'e':
          xml += `<c${ref} t="e"><v>#N/A</v></c>`;
          break;
      }
    });
    rows += `<row r="${r + 1}">${xml}</row>`;
  });
  return {
    sheet: sheetXml(rows),
    sharedStrings: sharedStringsXml(strings),
    styles: stylesXml([0, 14, 164, 165, 22], { 164: 'dd/mm/yyyy', 165: '0.00' }),
  };
}

const PARTS = ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml', 'xl/styles.xml'] as const;

/** A generated workbook with one of its XML parts mutated before it is zipped. */
const xmlMutated: fc.Arbitrary<Buffer> = fc.tuple(book, fc.constantFrom(...PARTS)).chain(([b, part]) => {
  const p = parts(b);
  const xml = { [PARTS[0]]: p.sheet, [PARTS[1]]: p.sharedStrings, [PARTS[2]]: p.styles };
  return mutated(fc.constant(Buffer.from(xml[part]))).map((bytes) =>
    xlsxBuffer({
      sheets: [{ xml: p.sheet }],
      sharedStrings: p.sharedStrings,
      styles: p.styles,
      date1904: b.date1904,
      parts: { [part]: { data: bytes } },
    }),
  );
});

const whole = (b: Book) => {
  const p = parts(b);
  return xlsxBuffer({
    sheets: [{ xml: p.sheet }],
    sharedStrings: p.sharedStrings,
    styles: p.styles,
    date1904: b.date1904,
  });
};

/** Parts no reader should ever follow or expand. */
const hostile: fc.Arbitrary<Buffer> = fc.constantFrom(
  xlsxBuffer({
    sheets: [{ xml: sheetXml('<row r="1"><c t="s"><v>0</v></c></row>') }],
    sharedStrings: '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><sst><si><t>&b;</t></si></sst>',
  }),
  xlsxBuffer({
    sheets: [{ xml: sheetXml('<row r="1"><c t="s"><v>0</v></c></row>') }],
    sharedStrings: '<sst><si><t>&xxe;</t></si></sst>',
  }),
  (() => {
    const { compressed, size } = sharedStringsBomb(200, { crc: false });
    return xlsxBuffer({
      sheets: [{ xml: sheetXml('<row r="1"><c t="s"><v>0</v></c><c><v>11912345678</v></c></row>') }],
      parts: { 'xl/sharedStrings.xml': { method: 8, compressed, size } },
    });
  })(),
  (() => {
    const block = Buffer.from('<row><c><v>11912345678</v></c></row>'.repeat(30_000));
    const { compressed, size } = repeatedDeflate(block, 100, {
      head: '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
      tail: '</sheetData></worksheet>',
      crc: false,
    });
    return xlsxBuffer({
      sheets: [{ xml: '' }],
      parts: { 'xl/worksheets/sheet1.xml': { method: 8, compressed, size } },
    });
  })(),
);

export const xlsxBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: book.map(whole) },
  { weight: 4, arbitrary: xmlMutated },
  { weight: 2, arbitrary: mutated(book.map(whole)) },
  { weight: 1, arbitrary: hostile },
);
