import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/server.test-support.ts';
import {
  inlineRow,
  sharedStringsXml,
  sheetXml,
  stylesXml,
  type TestXlsx,
  xlsxBuffer,
  xmlEscape,
} from '../../../../test/xlsx-builder.test-support.ts';
import { repeatedDeflate, sharedStringsBomb } from '../../../../test/zip-writer.test-support.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { excelDate, isDateFormat, readXlsxRows, readXlsxSample, SharedStrings, type XlsxLimits } from './xlsx.ts';

const dir = tempDir('ecoa-xlsx-');
let n = 0;
function file(book: TestXlsx | Buffer): string {
  const p = path.join(dir, `${n++}.xlsx`);
  fs.writeFileSync(p, Buffer.isBuffer(book) ? book : xlsxBuffer(book));
  return p;
}

async function rowsOf(filePath: string, limits: Partial<XlsxLimits> = {}): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const batch of readXlsxRows(filePath, () => {}, limits)) rows.push(...batch);
  return rows;
}

/** The AppError a read ends with: its code and details. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, details: (err.details ?? {}) as Record<string, unknown> };
    throw err;
  }
  throw new Error('expected a failure');
}

const oneSheet = (rows: string, extra: Partial<TestXlsx> = {}): TestXlsx => ({
  sheets: [{ xml: sheetXml(rows) }],
  ...extra,
});

describe('readXlsxRows: cells', () => {
  it('turns every cell type into text', async () => {
    const strings = sharedStringsXml(['Nome', ' Ana Souza ', 'Ótica & Cia']);
    const styles = stylesXml([0, 14, 164, 165, 22], { 164: 'dd/mm/yyyy;@', 165: '#,##0.00 "dias"' });
    const rows =
      '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' +
      '<row r="2">' +
      '<c r="A2" t="s"><v>1</v></c>' + // shared string, trimmed
      '<c r="B2"><v>11912345678</v></c>' + // integer: no decimals
      '<c r="C2"><v>1.1912345678E10</v></c>' + // integer written in scientific notation
      '<c r="D2"><v>150.5</v></c>' +
      '<c r="E2" s="1"><v>33010</v></c>' + // built-in date format 14
      '<c r="F2" s="2"><v>45000.75</v></c>' + // custom date format
      '<c r="G2" s="3"><v>12</v></c>' + // custom number format, not a date
      '<c r="H2" s="4"><v>0</v></c>' + // format 22 (m/d/yy h:mm): 30/12/1899
      '<c r="I2" t="b"><v>1</v></c><c r="J2" t="b"><v>0</v></c>' +
      '<c r="K2" t="e"><v>#DIV/0!</v></c>' + // error → empty
      '<c r="L2" t="str"><f>"(85) "&amp;"3456-7890"</f><v>(85) 3456-7890</v></c>' + // formula: cached value
      '<c r="M2"><f>SUM(1,2)</f><v>3</v></c>' +
      '<c r="N2"><f>NOW()</f></c>' + // formula without a cached value
      '<c r="O2" t="inlineStr"><is><r><t>Rich </t></r><r><rPr><b/></rPr><t>inline</t></r></is></c>' +
      '<c r="P2" t="d"><v>2021-03-04T00:00:00</v></c>' +
      '<c r="Q2" t="s"><v>2</v></c>' +
      '</row>';
    expect(await rowsOf(file(oneSheet(rows, { sharedStrings: strings, styles })))).toEqual([
      ['Nome'],
      [
        'Ana Souza',
        '11912345678',
        '11912345678',
        '150.5',
        '17/05/1990',
        '15/03/2023',
        '12',
        '30/12/1899',
        'VERDADEIRO',
        'FALSO',
        '',
        '(85) 3456-7890',
        '3',
        '',
        'Rich inline',
        '04/03/2021',
        'Ótica & Cia',
      ],
    ]);
  });

  it('reads dates of 1904 workbooks', async () => {
    const styles = stylesXml([0, 14]);
    const rows = '<row r="1"><c r="A1" s="1"><v>31548</v></c></row>';
    expect(await rowsOf(file(oneSheet(rows, { styles, date1904: true })))).toEqual([['17/05/1990']]);
  });

  it('places cells by their reference: gaps, missing references, blank rows, trailing empties', async () => {
    const rows =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="D1" t="inlineStr"><is><t>d</t></is></c></row>' +
      '<row r="2"><c r="B2" t="inlineStr"><is><t>b</t></is></c><c t="inlineStr"><is><t>c</t></is></c><c><v>7</v></c></row>' +
      '<row r="3"><c r="A3" s="0"/><c r="B3" t="inlineStr"><is><t>  </t></is></c></row>' + // only empty cells
      '<row r="5"><c r="A5" t="inlineStr"><is><t>x</t></is></c><c r="C5" t="e"><v>#N/A</v></c><c r="Z5"/></row>' +
      '<row r="9" spans="1:3"/>';
    expect(await rowsOf(file(oneSheet(rows)))).toEqual([['a', '', '', 'd'], ['', 'b', 'c', '7'], ['x']]);
  });

  it('reads shared strings: rich text joined, phonetic runs left out, escapes, CDATA, entities', async () => {
    const strings =
      '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<si><r><t xml:space="preserve">Rich </t></r><r><rPr><b/></rPr><t>Text Ltda</t></r></si>' +
      '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si>' +
      '<si><t>linha 1_x000D_\nlinha 2</t></si>' +
      '<si><t><![CDATA[a < b & c]]></t></si>' +
      '<si><t>&#233;&#xE9;&quot;&apos;&gt;</t></si>' +
      '<si><t/></si>' +
      '</sst>';
    const rows = `<row r="1">${[0, 1, 2, 3, 4, 5].map((i) => `<c t="s"><v>${i}</v></c>`).join('')}</row>`;
    expect(await rowsOf(file(oneSheet(rows, { sharedStrings: strings })))).toEqual([
      ['Rich Text Ltda', '東京', 'linha 1\r\nlinha 2', 'a < b & c', 'éé"\'>'],
    ]);
  });

  it('reads the first worksheet with data in tab order, and parts named by prefix or not at all', async () => {
    const book: TestXlsx = {
      sheets: [
        { xml: sheetXml(''), name: 'Vazia', file: 'sheet3.xml' },
        { xml: sheetXml(inlineRow(1, ['segunda aba', 'é a primeira com dados'])), name: 'Dados', file: 'sheet1.xml' },
        { xml: sheetXml(inlineRow(1, ['ignorada'])), name: 'Outra', file: 'sheet2.xml' },
      ],
    };
    expect(await rowsOf(file(book))).toEqual([['segunda aba', 'é a primeira com dados']]);

    // A generator that writes every element with a prefix.
    const prefixed = sheetXml(inlineRow(1, ['x:c'])).replace(/<(\/?)(\w)/g, '<$1x:$2');
    expect(await rowsOf(file(oneSheet('', { sheets: [{ xml: prefixed }] })))).toEqual([['x:c']]);

    // No workbook or relations at all: the sheetN.xml parts by number.
    const bare = file(
      oneSheet(inlineRow(1, ['sem workbook']), {
        omit: ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', '_rels/.rels'],
      }),
    );
    expect(await rowsOf(bare)).toEqual([['sem workbook']]);
  });

  it('reads no further than </sheetData> and reports progress', async () => {
    let rows = '';
    for (let r = 1; r <= 5000; r++) rows += inlineRow(r, [`Pessoa ${r}`, `1191234${String(r).padStart(4, '0')}`]);
    // Whatever follows the rows is never parsed: even markup that would be refused.
    const xml = sheetXml(rows).replace('</sheetData>', '</sheetData><!DOCTYPE never-read>');
    const progress: number[] = [];
    const read: string[][] = [];
    const batches: number[] = [];
    for await (const batch of readXlsxRows(file(oneSheet('', { sheets: [{ xml }] })), (d) => progress.push(d))) {
      batches.push(batch.length);
      read.push(...batch);
    }
    expect(read).toHaveLength(5000);
    expect(read[4999]).toEqual(['Pessoa 5000', '11912345000']);
    expect(batches.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });
});

describe('readXlsxRows: hostile and broken files', () => {
  it('refuses a DOCTYPE, entity declarations and unknown entities (XLSX_BROKEN)', async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol9 "&lol;&lol;">]><sst><si><t>&lol9;</t></si></sst>`;
    const a = await failure(
      rowsOf(file(oneSheet('<row r="1"><c t="s"><v>0</v></c></row>', { sharedStrings: laughs }))),
    );
    expect(a).toMatchObject({ code: 'XLSX_BROKEN' });
    expect(a.details.cause).toMatch(/DOCTYPE/);
    const entity = `<sst><si><t>&xxe;</t></si></sst>`;
    const b = await failure(
      rowsOf(file(oneSheet('<row r="1"><c t="s"><v>0</v></c></row>', { sharedStrings: entity }))),
    );
    expect(b).toMatchObject({ code: 'XLSX_BROKEN' });
    expect(b.details.cause).toMatch(/&xxe;/);
    const sheet = sheetXml('').replace('<worksheet', '<!DOCTYPE w SYSTEM "http://evil/"><worksheet');
    expect(await failure(rowsOf(file(oneSheet('', { sheets: [{ xml: sheet }] }))))).toMatchObject({
      code: 'XLSX_BROKEN',
    });
  });

  it('refuses malformed XML, a sheet cut short, a zip without worksheets', async () => {
    const cut = sheetXml(inlineRow(1, ['a'])).split('</sheetData>')[0]!;
    expect(await failure(rowsOf(file(oneSheet('', { sheets: [{ xml: cut }] }))))).toMatchObject({
      code: 'XLSX_BROKEN',
    });
    const mismatched = sheetXml('<row r="1"><c r="A1"><v>1</c></v></row>');
    expect(await failure(rowsOf(file(oneSheet('', { sheets: [{ xml: mismatched }] }))))).toMatchObject({
      code: 'XLSX_BROKEN',
    });
    expect(await failure(rowsOf(file({ sheets: [], omit: ['xl/styles.xml'] })))).toMatchObject({ code: 'XLSX_BROKEN' });
  });

  it('refuses a 5 MB-class bomb: shared strings inflating to ~2 GB, in well under a second', async () => {
    const { compressed, size } = sharedStringsBomb(2000, { crc: false });
    const bomb = file(
      oneSheet('<row r="1"><c t="s"><v>0</v></c><c><v>11912345678</v></c></row>', {
        parts: { 'xl/sharedStrings.xml': { method: 8, compressed, size } },
      }),
    );
    const err = await failure(rowsOf(bomb));
    expect(err).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { max: 200 } });
    expect(err.details.limit).toBe('ratio');
    // Padded inside its entry until the declared ratio looks harmless: the sample needs one
    // string and passes, the full read is stopped by the ratio it counts.
    const padded = Buffer.concat([compressed, Buffer.alloc(Math.ceil(size / 200) - compressed.length, 0x55)]);
    const sneaky = file(
      oneSheet('<row r="1"><c t="s"><v>0</v></c><c><v>11912345678</v></c></row>', {
        parts: { 'xl/sharedStrings.xml': { method: 8, compressed: padded, size } },
      }),
    );
    expect(await readXlsxSample(sneaky, 50)).toEqual([['Ana', '11912345678']]);
    const counted = await failure(rowsOf(sneaky));
    expect(counted).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'ratio', max: 200 } });
    // Declared small, the same bomb is stopped at its first chunk as broken.
    const liar = file(
      oneSheet('<row r="1"><c t="s"><v>0</v></c></row>', {
        parts: { 'xl/sharedStrings.xml': { method: 8, compressed, size: 500_000 } },
      }),
    );
    expect(await failure(rowsOf(liar))).toMatchObject({ code: 'XLSX_BROKEN' });
  });

  it('refuses a bomb in a worksheet too', async () => {
    const block = Buffer.from('<row><c><v>1</v></c></row>'.repeat(40_000));
    const { compressed, size } = repeatedDeflate(block, 500, {
      head: '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
      tail: '</sheetData></worksheet>',
      crc: false,
    });
    const bomb = file(oneSheet('', { parts: { 'xl/worksheets/sheet1.xml': { method: 8, compressed, size } } }));
    expect(await failure(rowsOf(bomb))).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'ratio' } });
  });
});

describe('readXlsxRows: limits', () => {
  const strings = (count: number) => sharedStringsXml(Array.from({ length: count }, (_, i) => `nome ${i}`));
  const refRow = '<row r="1"><c t="s"><v>0</v></c></row>';

  it('each limit is XLSX_TOO_LARGE naming the limit and its maximum', async () => {
    const cases: [string, TestXlsx, Partial<XlsxLimits>, string, number][] = [
      ['shared strings', oneSheet(refRow, { sharedStrings: strings(50) }), { sharedStrings: 49 }, 'sharedStrings', 49],
      [
        'shared string bytes',
        oneSheet(refRow, { sharedStrings: strings(50) }),
        { sharedStringBytes: 100 },
        'sharedStringBytes',
        100,
      ],
      ['columns', oneSheet('<row r="1"><c r="XFE1"><v>1</v></c></row>'), {}, 'columns', 16_384],
      [
        'columns (sequential)',
        oneSheet(`<row r="1">${'<c><v>1</v></c>'.repeat(11)}</row>`),
        { columns: 10 },
        'columns',
        10,
      ],
      ['characters in a cell', oneSheet(inlineRow(1, ['x'.repeat(32_768)])), {}, 'cellChars', 32_767],
      [
        'characters in a shared string',
        oneSheet(refRow, { sharedStrings: sharedStringsXml(['y'.repeat(70_000)]) }),
        {},
        'cellChars',
        32_767,
      ],
      [
        'characters in a row',
        // Random text: 40 cells of one repeated letter would pass the compression ratio first.
        oneSheet(
          inlineRow(
            1,
            Array.from({ length: 40 }, () => crypto.randomBytes(22_500).toString('base64')),
          ),
        ),
        {},
        'rowChars',
        1024 * 1024,
      ],
      ['cell formats', oneSheet(refRow, { styles: stylesXml(Array(20).fill(0)) }), { styles: 10 }, 'styles', 10],
      [
        'part size',
        oneSheet(refRow, { styles: stylesXml(Array(500).fill(0)) }),
        { partBytes: 4096 },
        'partBytes',
        4096,
      ],
      ['sheet size', oneSheet(inlineRow(1, ['a'.repeat(20_000)])), { sheetBytes: 10_000 }, 'sheetBytes', 10_000],
      [
        'total size',
        oneSheet(inlineRow(1, ['a'.repeat(20_000)]), { sharedStrings: strings(2000) }),
        { totalBytes: 40_000 },
        'totalBytes',
        40_000,
      ],
      ['entries', oneSheet(refRow), { entries: 5 }, 'entries', 5],
      [
        'XML token',
        oneSheet(`<row r="1"><c r="A1" t="str"><f>${'1+'.repeat(50_000)}1</f><v>x</v></c></row>`),
        { xmlToken: 4096 },
        'xmlToken',
        4096,
      ],
    ];
    for (const [what, book, limits, limit, max] of cases) {
      const err = await failure(rowsOf(file(book), limits));
      expect(err.code, what).toBe('XLSX_TOO_LARGE');
      expect(err.details, what).toMatchObject({ limit, max });
    }
  });

  it('stays within the limits at their edge', async () => {
    const book = oneSheet(`<row r="1"><c r="XFD1" t="inlineStr"><is><t>${'x'.repeat(32_767)}</t></is></c></row>`);
    const [row] = await rowsOf(file(book));
    expect(row).toHaveLength(16_384);
    expect(row![16_383]).toHaveLength(32_767);
  });
});

describe('readXlsxSample', () => {
  it('reads the first rows with only the shared strings they use', async () => {
    // Strings past the ones the sample uses are malformed: the sample never reads that far.
    const items = Array.from({ length: 20 }, (_, i) => `nome ${i}`);
    const good = sharedStringsXml(items);
    const strings = good.replace('</sst>', '<si><t>&broken;</t></si></sst>');
    let rows = '';
    for (let r = 1; r <= 100; r++)
      rows += `<row r="${r}"><c r="A${r}" t="s"><v>${(r - 1) % 20}</v></c><c r="B${r}"><v>${r}</v></c></row>`;
    const path1 = file(oneSheet(rows, { sharedStrings: strings }));
    const sample = await readXlsxSample(path1, 50);
    expect(sample).toHaveLength(50);
    expect(sample[0]).toEqual(['nome 0', '1']);
    expect(sample[49]).toEqual(['nome 9', '50']);
    expect(await failure(rowsOf(path1))).toMatchObject({ code: 'XLSX_BROKEN' });

    // The same file read whole and sampled agree.
    const path2 = file(oneSheet(rows, { sharedStrings: good }));
    expect(await readXlsxSample(path2, 50)).toEqual((await rowsOf(path2)).slice(0, 50));
  });

  it('skips rows whose shared strings turn out blank', async () => {
    const strings = sharedStringsXml(['  ', 'Ana', '11912345678']);
    const rows =
      '<row r="1"><c r="A1" t="s"><v>0</v></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="s"><v>2</v></c><c r="C2" t="s"><v>0</v></c></row>';
    expect(await readXlsxSample(file(oneSheet(rows, { sharedStrings: strings })), 10)).toEqual([
      ['Ana', '11912345678'],
    ]);
    const blank = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>';
    const second = { xml: sheetXml(inlineRow(1, ['na segunda'])) };
    expect(
      await readXlsxSample(file({ sheets: [{ xml: sheetXml(blank) }, second], sharedStrings: strings }), 10),
    ).toEqual([['na segunda']]);
  });

  it('refuses the bomb as the full read does', async () => {
    const { compressed, size } = sharedStringsBomb(2000, { crc: false });
    // However few strings the sample needs, the part is refused before any is read.
    const bomb = file(
      oneSheet('<row r="1"><c t="s"><v>5000000</v></c></row>', {
        parts: { 'xl/sharedStrings.xml': { method: 8, compressed, size } },
      }),
    );
    expect(await failure(readXlsxSample(bomb, 50))).toMatchObject({ code: 'XLSX_TOO_LARGE' });
  });
});

describe('pieces', () => {
  it('SharedStrings keeps every string exactly across slab boundaries', () => {
    const strings = new SharedStrings();
    const samples = ['', 'a', 'Zé 😀', 'x'.repeat(30_000), '東京'.repeat(5000), 'último'];
    const count = 2000;
    for (let i = 0; i < count; i++) strings.add(`${samples[i % samples.length]}${i}`);
    expect(strings.count).toBe(count);
    for (const i of [0, 1, 2, 3, 4, 5, 139, 140, 141, 1000, 1999]) {
      expect(strings.get(i)).toBe(`${samples[i % samples.length]}${i}`);
    }
    for (let i = 0; i < count; i++)
      if (strings.get(i) !== `${samples[i % samples.length]}${i}`) throw new Error(`string ${i}`);
    expect(strings.get(count)).toBe('');
    expect(strings.get(-1)).toBe('');
  });

  it('date formats and serials', () => {
    for (const code of ['dd/mm/yyyy', 'DD/MM/YYYY', 'mmm-yy', '[$-416]d" de "mmmm" de "yyyy;@', 'h:mm', '[h]:mm:ss']) {
      expect(isDateFormat(code), code).toBe(true);
    }
    for (const code of [
      'General',
      '0.00',
      '#,##0 "dias"',
      '[Red]0.00',
      '@',
      '0.00E+00',
      '_-* #,##0.00_-',
      '"R$" #,##0',
    ]) {
      expect(isDateFormat(code), code).toBe(false);
    }
    expect(excelDate(33010, false)).toBe('17/05/1990');
    expect(excelDate(1, false)).toBe('31/12/1899');
    expect(excelDate(60, false)).toBe('28/02/1900');
    expect(excelDate(2958465, false)).toBe('31/12/9999');
    expect(excelDate(0, true)).toBe('01/01/1904');
    expect(xmlEscape('a<b')).toBe('a&lt;b');
  });
});
