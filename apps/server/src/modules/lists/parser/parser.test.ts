import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/server.test-support.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { CsvParser, detectDelimiter } from '../../../platform/text/csv.ts';
import { EXCEL_BR_MAPPING, fixturePath } from '../fixtures.test-support.ts';
import { detectHeader, detectMapping, slugifyHeader, validateMapping } from './mapping.ts';
import { openSpreadsheet } from './source.ts';

const fixture = fixturePath;

async function readAll(file: string, options: { sampleOnly?: boolean } = {}) {
  const sheet = await openSpreadsheet(file, options);
  const rows: string[][] = [];
  for await (const batch of sheet.rows()) rows.push(...batch);
  return { sheet, rows };
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return 'NO_ERROR';
}

function parseAll(text: string, delimiter = ',', chunkSize = text.length): string[][] {
  const parser = new CsvParser(delimiter);
  const rows: string[][] = [];
  for (let i = 0; i < text.length; i += chunkSize) parser.push(text.slice(i, i + chunkSize), rows);
  parser.end(rows);
  return rows;
}

describe('CsvParser', () => {
  const tricky = 'a,"b,1","c ""quoted"""\r\n"multi\nline",,x\n\n;;\r"last",2,"3"';

  it('handles quotes, escaped quotes, fields over lines, CRLF/LF/CR and blank lines', () => {
    expect(parseAll(tricky)).toEqual([
      ['a', 'b,1', 'c "quoted"'],
      ['multi\nline', '', 'x'],
      [';;'],
      ['last', '2', '3'],
    ]);
  });

  it('gives the same rows whatever the chunk boundaries', () => {
    const whole = parseAll(tricky);
    for (const size of [1, 2, 3, 5, 7, 11]) expect(parseAll(tricky, ',', size), `chunk ${size}`).toEqual(whole);
  });

  it('keeps a trailing empty field and stray quotes inside unquoted fields', () => {
    expect(parseAll('a;b;\nO\'Neil "Jr";2;3', ';')).toEqual([
      ['a', 'b', ''],
      ['O\'Neil "Jr"', '2', '3'],
    ]);
  });

  it('refuses an unclosed quote instead of swallowing the file', () => {
    expect(() => parseAll('a,"open\nb,c\n')).toThrow(AppError);
  });
});

describe('detectDelimiter', () => {
  it('finds ; , tab and | and ignores separators inside quotes', () => {
    expect(detectDelimiter('nome;telefone;cidade\nAna;11912345678;"São Paulo, SP"\n')).toBe(';');
    expect(detectDelimiter('name,phone\n"Silva; João",11912345678\nAna,21987654321\n')).toBe(',');
    expect(detectDelimiter('a\tb\tc\n1\t2\t3\n')).toBe('\t');
    expect(detectDelimiter('a|b\n1|2\n')).toBe('|');
    expect(detectDelimiter('11912345678\n21987654321\n')).toBe(',');
  });
});

describe('openSpreadsheet', () => {
  it('reads a Windows-1252 `;` export from Excel (accents, CRLF, quoted separator)', async () => {
    const { sheet, rows } = await readAll(fixture('excel-br-windows1252.csv'));
    expect(sheet).toMatchObject({ kind: 'csv', encoding: 'windows-1252', delimiter: ';' });
    expect(rows[0]).toEqual(['Nome', 'Telefone', 'Empresa', 'Cidade']);
    expect(rows[1]).toEqual(['João da Silva', '(11) 91234-5678', 'Padaria Pão Quente', 'São Paulo']);
    expect(rows[2]).toEqual(['Maria Conceição', '11 98765-4321', 'Açougue Boi; Cia', 'Guarulhos']);
    expect(rows).toHaveLength(11); // the blank line is skipped
    expect(sheet.bytesRead()).toBe(sheet.size);
  });

  it('reads UTF-8 with BOM, commas, quotes and a field spanning lines', async () => {
    const { sheet, rows } = await readAll(fixture('utf8-bom-comma.csv'));
    expect(sheet).toMatchObject({ kind: 'csv', encoding: 'utf-8', delimiter: ',' });
    expect(rows[0]).toEqual(['name', 'phone', 'company', 'notes']);
    expect(rows[1]).toEqual(['Silva, João', '(11) 91234-5678', 'ACME "Brasil"', 'linha 1\nlinha 2']);
    expect(rows[2]).toEqual(['Maria', '21987654321', 'Beta', '']);
  });

  it('reads a tab-separated file without header and an Excel "Unicode text" (UTF-16) file', async () => {
    const tab = await readAll(fixture('no-header-tab.csv'));
    expect(tab.sheet.delimiter).toBe('\t');
    expect(tab.rows[0]).toEqual(['11912345678', 'Ana Paula', 'SP']);
    const utf16 = await readAll(fixture('excel-unicode-text-utf16.txt'));
    expect(utf16.sheet).toMatchObject({ encoding: 'utf-16le', delimiter: '\t' });
    expect(utf16.rows).toEqual([
      ['Nome', 'Celular'],
      ['Júlia', '(11) 97777-6666'],
      ['Otávio', '(48) 99999-1234'],
    ]);
  });

  it('reads an XLSX by streaming: numbers, rich text, formulas, hyperlinks, dates; first sheet only', async () => {
    const { sheet, rows } = await readAll(fixture('contacts.xlsx'));
    expect(sheet.kind).toBe('xlsx');
    expect(rows[0]).toEqual(['Nome', 'Celular', 'Empresa', 'Nascimento', 'Valor']);
    expect(rows[1]).toEqual(['Ana Souza', '11912345678', 'Ótica Boa Vista', '17/05/1990', '150.5']);
    expect(rows[2]?.slice(0, 3)).toEqual(['Bruno Lima', '(21) 98765-4321', 'Rich Text Ltda']);
    expect(rows.at(-1)?.slice(0, 3)).toEqual(['Eva Nunes', '(85) 3456-7890', 'site']);
    expect(rows).toHaveLength(6);
    expect(rows.flat()).not.toContain('ignorada');
  });

  it('decides the type by content and refuses what is not a spreadsheet', async () => {
    expect(await errorCode(readAll(fixture('empty.csv')))).toBe('EMPTY_FILE');
    expect(await errorCode(readAll(fixture('legacy.xls')))).toBe('LEGACY_XLS');
    expect(await errorCode(readAll(fixture('image.png.csv')))).toBe('UNSUPPORTED_FILE_TYPE');
    expect(await errorCode(readAll(fixture('broken-truncated.xlsx')))).toBe('XLSX_BROKEN');
    expect(await errorCode(readAll(fixture('zip-not-xlsx.xlsx')))).toBe('XLSX_BROKEN');
    expect(await errorCode(readAll(fixture('unclosed-quote.csv')))).toBe('CSV_MALFORMED');
    const spaces = path.join(tempDir(), 'spaces.csv');
    fs.writeFileSync(spaces, '\ufeff \r\n \n');
    expect(await errorCode(readAll(spaces))).toBe('EMPTY_FILE');
  });

  it('a CSV named .xlsx is read as CSV, an XLSX named .csv as XLSX', async () => {
    const dir = tempDir();
    fs.copyFileSync(fixture('contacts.xlsx'), path.join(dir, 'contacts.csv'));
    expect((await readAll(path.join(dir, 'contacts.csv'))).sheet.kind).toBe('xlsx');
    fs.copyFileSync(fixture('no-header-tab.csv'), path.join(dir, 'list.xlsx'));
    expect((await readAll(path.join(dir, 'list.xlsx'))).sheet.kind).toBe('csv');
  });

  it('reads a workbook whose workbook part is stored last, every time (exceljs issue #3064)', async () => {
    // exceljs's writer, like Excel, stores xl/workbook.xml after the sheets; its one-pass reader
    // then intermittently failed with "Cannot read properties of undefined (reading 'sheets')".
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Contatos').addRows([
      ['telefone', 'nome'],
      ['11912345678', 'Ana'],
    ]);
    book.addWorksheet('Outra').addRow(['x', 'y']);
    const file = path.join(tempDir(), 'two-sheets.xlsx');
    fs.writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));
    const reads = await Promise.all(Array.from({ length: 20 }, () => readAll(file)));
    for (const { rows } of reads) {
      expect(rows).toEqual([
        ['telefone', 'nome'],
        ['11912345678', 'Ana'],
      ]);
    }
  });

  it('previews the beginning of a big file without choking on the cut last line', async () => {
    const file = path.join(tempDir(), 'cut.csv');
    fs.writeFileSync(file, 'nome;telefone\nAna;11912345678\n"Bru');
    const { rows } = await readAll(file, { sampleOnly: true });
    expect(rows.slice(0, 2)).toEqual([
      ['nome', 'telefone'],
      ['Ana', '11912345678'],
    ]);
  });
});

describe('column mapping', () => {
  it('detects header, phone, name and fields in the Excel export', async () => {
    const { rows } = await readAll(fixture('excel-br-windows1252.csv'));
    expect(detectMapping(rows)).toEqual(EXCEL_BR_MAPPING);
  });

  it('detects the phone column by content when there is no header', async () => {
    const { rows } = await readAll(fixture('no-header-tab.csv'));
    expect(detectHeader(rows)).toBe(false);
    expect(detectMapping(rows)).toEqual({
      hasHeader: false,
      phone: 0,
      name: 1,
      fields: [{ column: 2, key: 'coluna_3' }],
    });
  });

  it('detects a header without known names when the column below is phones', () => {
    expect(
      detectHeader([
        ['Contato A', 'X'],
        ['11912345678', 'y'],
        ['21987654321', 'z'],
      ]),
    ).toBe(true);
  });

  it('refuses a file without a phone column', async () => {
    const { rows } = await readAll(fixture('no-phone.csv'));
    expect(() => detectMapping(rows)).toThrow(expect.objectContaining({ code: 'NO_PHONE_COLUMN' }));
  });

  it('turns headers into variable names', () => {
    expect(slugifyHeader('Razão Social')).toBe('razao_social');
    expect(slugifyHeader('  E-mail (principal) ')).toBe('e_mail_principal');
  });

  it('validates a mapping sent by the user', () => {
    const ok = { hasHeader: true, phone: 1, name: 0, fields: [{ column: 2, key: 'empresa' }] };
    expect(validateMapping(ok, 3)).toEqual(ok);
    expect(() => validateMapping({ ...ok, phone: 5 }, 3)).toThrow(expect.objectContaining({ code: 'NO_PHONE_COLUMN' }));
    expect(() => validateMapping({ ...ok, name: 1 }, 3)).toThrow(expect.objectContaining({ code: 'INVALID_MAPPING' }));
    expect(() => validateMapping({ ...ok, fields: [{ column: 2, key: 'Bad Key' }] }, 3)).toThrow(
      expect.objectContaining({ code: 'INVALID_MAPPING' }),
    );
  });
});
