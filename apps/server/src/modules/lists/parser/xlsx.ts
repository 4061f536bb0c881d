import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { fileError, isFileError } from './errors.ts';

type CellValue = unknown;

/**
 * Streams the rows of the first worksheet with data of an XLSX, as text cells, in batches.
 * Uses exceljs's streaming WorkbookReader: the sheet XML is parsed as it is unzipped, shared
 * strings are cached (they come before the sheets in files Excel writes).
 */
export async function* readXlsxRows(input: Readable): AsyncGenerator<string[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let sheets = 0;
  let rowsSeen = 0;
  try {
    for await (const worksheet of reader) {
      sheets++;
      const parse = (
        worksheet as unknown as { parse(): AsyncIterable<{ eventType: string; value: unknown }[]> }
      ).parse();
      if (rowsSeen > 0) {
        // Only the first sheet with data is imported, but every later sheet must still be read
        // to its end: exceljs may have spooled it to a temp file that it deletes as soon as we
        // move on, and an unread stream would then fail to open (an uncaught ENOENT).
        for await (const _ of parse);
        continue;
      }
      for await (const events of parse) {
        const batch: string[][] = [];
        for (const { eventType, value } of events) {
          if (eventType !== 'row') continue;
          const row = rowToText((value as { values: CellValue[] }).values);
          if (row) batch.push(row);
        }
        if (batch.length > 0) {
          rowsSeen += batch.length;
          yield batch;
        }
      }
    }
  } catch (err) {
    if (isFileError(err)) throw err;
    throw fileError('XLSX_BROKEN', { cause: err instanceof Error ? err.message : String(err) });
  }
  if (sheets === 0) throw fileError('XLSX_BROKEN');
}

/** exceljs rows are 1-based sparse arrays; gaps become empty cells. Null for empty rows. */
function rowToText(values: CellValue[]): string[] | null {
  const out: string[] = [];
  let any = false;
  for (let i = 1; i < values.length; i++) {
    const text = cellToText(values[i]);
    if (text.length > 0) any = true;
    out.push(text);
  }
  return any ? out : null;
}

export function cellToText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return Number.isInteger(value) ? value.toFixed(0) : String(value);
  }
  if (typeof value === 'boolean') return value ? 'VERDADEIRO' : 'FALSO';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const d = String(value.getUTCDate()).padStart(2, '0');
    const m = String(value.getUTCMonth() + 1).padStart(2, '0');
    return `${d}/${m}/${value.getUTCFullYear()}`;
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('result' in v) return cellToText(v.result);
    if ('formula' in v || 'sharedFormula' in v) return '';
    if (typeof v.text === 'string') return v.text.trim();
    if (v.text && typeof v.text === 'object') return cellToText(v.text);
    if ('error' in v) return '';
  }
  return String(value);
}
