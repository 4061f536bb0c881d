import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { fileError, isFileError } from './errors.ts';

type CellValue = unknown;

// unzipper is the zip reader exceljs itself uses; its central-directory API has no types.
type ZipEntry = { path: string; uncompressedSize: number; stream(): Readable };
const unzipper = createRequire(import.meta.url)('unzipper') as {
  Open: { file(path: string): Promise<{ files: ZipEntry[] }> };
};

/** The parts of exceljs's streaming WorkbookReader we drive ourselves (see readXlsxRows). */
type ReaderParts = {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(entry: Readable, sheetNo: string): Iterable<{ eventType: string; value: unknown }>;
};
type SheetReader = { parse(): AsyncIterable<{ eventType: string; value: unknown }[]> };

const SHEET_PATH = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * Streams the rows of the first worksheet with data of an XLSX, as text cells, in batches.
 *
 * The file is opened through the zip's central directory and read in the order the parts depend
 * on each other: the workbook and its relations, the shared strings, the styles, then the sheets,
 * each parsed as it is unzipped (exceljs's row parser, never the whole sheet in memory). exceljs's
 * own one-pass reader takes the parts in stored order, and Excel stores the workbook last: that
 * reader spools sheets to temp files and sometimes loses the last part (exceljs issue #3064,
 * "Cannot read properties of undefined (reading 'sheets')").
 * `onProgress(done)` reports the share (0..1) of the sheets' bytes read.
 */
export async function* readXlsxRows(
  filePath: string,
  onProgress: (done: number) => void = () => {},
): AsyncGenerator<string[][]> {
  let rowsSeen = 0;
  let sheets = 0;
  try {
    const zip = await unzipper.Open.file(filePath);
    const part = (name: string) => zip.files.find((f) => f.path === name);
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(null as unknown as Readable, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'cache',
      entries: 'ignore',
    }) as unknown as ReaderParts;

    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await reader._parseRels(rels.stream());
    const workbook = part('xl/workbook.xml');
    if (workbook) await reader._parseWorkbook(workbook.stream());
    const strings = part('xl/sharedStrings.xml');
    if (strings) for await (const _ of reader._parseSharedStrings(strings.stream()));
    const styles = part('xl/styles.xml');
    if (styles) await reader._parseStyles(styles.stream());

    const sheetParts = sheetsInWorkbookOrder(zip.files, reader);
    const total = sheetParts.reduce((sum, s) => sum + s.uncompressedSize, 0) || 1;
    let done = 0;
    for (const sheetPart of sheetParts) {
      sheets++;
      const sheetNo = SHEET_PATH.exec(sheetPart.path)?.[1] ?? '1';
      const stream = sheetPart.stream();
      stream.on('data', (chunk: Buffer) => {
        done += chunk.length;
        onProgress(Math.min(1, done / total));
      });
      for (const { eventType, value } of reader._parseWorksheet(stream, sheetNo)) {
        if (eventType !== 'worksheet') continue;
        for await (const events of (value as SheetReader).parse()) {
          const batch: string[][] = [];
          for (const event of events) {
            if (event.eventType !== 'row') continue;
            const row = rowToText((event.value as { values: CellValue[] }).values);
            if (row) batch.push(row);
          }
          if (batch.length > 0) {
            rowsSeen += batch.length;
            yield batch;
          }
        }
      }
      // Only the first sheet with data is imported: once it is read, the other parts stay unread.
      if (rowsSeen > 0) break;
    }
    onProgress(1);
  } catch (err) {
    if (isFileError(err)) throw err;
    throw fileError('XLSX_BROKEN', { cause: err instanceof Error ? err.message : String(err) });
  }
  if (sheets === 0) throw fileError('XLSX_BROKEN');
}

/** The worksheet parts in the workbook's tab order (by their relation ids), else by number. */
function sheetsInWorkbookOrder(files: ZipEntry[], reader: ReaderParts): ZipEntry[] {
  const parts = files.filter((f) => SHEET_PATH.test(f.path));
  const byNumber = (f: ZipEntry) => Number(SHEET_PATH.exec(f.path)?.[1]);
  const order = (reader.model?.sheets ?? []).map((sheet) => {
    const target = reader.workbookRels?.find((rel) => rel.Id === sheet.rId)?.Target ?? '';
    return target.replace(/^\/?(xl\/)?/, 'xl/');
  });
  const rank = (f: ZipEntry) => {
    const i = order.indexOf(f.path);
    return i >= 0 ? i : order.length + byNumber(f);
  };
  return parts.sort((a, b) => rank(a) - rank(b) || byNumber(a) - byNumber(b));
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
