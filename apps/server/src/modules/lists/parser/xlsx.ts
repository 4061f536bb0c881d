/**
 * XLSX as a stream: the zip's parts are read through the XML tokenizer, never loaded whole, under
 * the limits of xlsx-limits.ts. This file opens the workbook and hands out rows (an import) or a
 * sample (the mapping screen); the parts' readers are in xlsx-parts, xlsx-strings and xlsx-sheet.
 */
import path from 'node:path';
import {
  openZip,
  type ZipArchive,
  type ZipEntry,
  ZipFormatError,
  ZipLimitError,
} from '../../../platform/archive/zip.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { XmlError, XmlLimitError, XmlTokenizer } from '../../../platform/xml/xml.ts';
import { isFileError } from './errors.ts';
import { XLSX_LIMITS, type XlsxLimits } from './xlsx-limits.ts';
import { parsePart, RelationsHandler, relsPathOf, StylesHandler, WorkbookHandler } from './xlsx-parts.ts';
import { SheetHandler } from './xlsx-sheet.ts';
import { SelectedStrings, SharedStrings, SharedStringsHandler, type StringSink } from './xlsx-strings.ts';

export { XLSX_LIMITS, type XlsxLimits } from './xlsx-limits.ts';
export { isDateFormat } from './xlsx-parts.ts';
export { excelDate } from './xlsx-sheet.ts';
export { SharedStrings } from './xlsx-strings.ts';

const REL_OFFICE_DOCUMENT = '/officeDocument';
const REL_WORKSHEET = '/worksheet';
const REL_SHARED_STRINGS = '/sharedStrings';
const REL_STYLES = '/styles';
const SHEET_PATH = /^xl\/worksheets\/sheet(\d+)\.xml$/i;

// ---------------------------------------------------------------------------------------------
// The workbook

type Workbook = {
  zip: ZipArchive;
  /** Worksheets in tab order. */
  sheets: ZipEntry[];
  sharedStrings: ZipEntry | undefined;
  dateStyles: Uint8Array;
  date1904: boolean;
  limits: XlsxLimits;
};

function findPart(zip: ZipArchive, name: string | undefined): ZipEntry | undefined {
  if (!name) return undefined;
  const exact = zip.find(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  return zip.entries.find((e) => e.name.toLowerCase() === lower);
}

async function openWorkbook(filePath: string, limits: XlsxLimits): Promise<Workbook> {
  const zip = await openZip(filePath, {
    maxEntries: limits.entries,
    maxEntryBytes: limits.sheetBytes,
    maxTotalBytes: limits.totalBytes,
    maxRatio: limits.ratio,
    ratioMinBytes: limits.ratioMinBytes,
  });
  const rootRels = new RelationsHandler('');
  const rootRelsPart = findPart(zip, '_rels/.rels');
  if (rootRelsPart) await parsePart(zip, rootRelsPart, rootRels, limits);
  const workbookPath = rootRels.ofType(REL_OFFICE_DOCUMENT) ?? 'xl/workbook.xml';
  const workbookDir = path.posix.dirname(workbookPath);

  const rels = new RelationsHandler(workbookDir === '.' ? '' : workbookDir);
  const relsPart = findPart(zip, relsPathOf(workbookPath));
  if (relsPart) await parsePart(zip, relsPart, rels, limits);
  const workbook = new WorkbookHandler();
  const workbookPart = findPart(zip, workbookPath);
  if (workbookPart) await parsePart(zip, workbookPart, workbook, limits);
  const styles = new StylesHandler(limits);
  const stylesPart = findPart(zip, rels.ofType(REL_STYLES) ?? 'xl/styles.xml');
  if (stylesPart) await parsePart(zip, stylesPart, styles, limits);

  // Tab order from the workbook; then any other sheetN.xml part, by number (as Excel names them).
  const sheets: ZipEntry[] = [];
  for (const id of workbook.sheetRelIds) {
    const rel = rels.byId.get(id);
    if (!rel || (rel.type && !rel.type.endsWith(REL_WORKSHEET))) continue;
    const part = findPart(zip, rel.target);
    if (part && !sheets.includes(part)) sheets.push(part);
  }
  const numberOf = (e: ZipEntry) => Number(SHEET_PATH.exec(e.name)?.[1]);
  const others = zip.entries.filter((e) => SHEET_PATH.test(e.name) && !sheets.includes(e));
  sheets.push(...others.sort((a, b) => numberOf(a) - numberOf(b)));

  return {
    zip,
    sheets,
    sharedStrings: findPart(zip, rels.ofType(REL_SHARED_STRINGS) ?? 'xl/sharedStrings.xml'),
    dateStyles: styles.dateStyles(),
    date1904: workbook.date1904,
    limits,
  };
}

async function readStrings(book: Workbook, sink: StringSink): Promise<void> {
  if (!book.sharedStrings || sink.done) return;
  const stream = await book.zip.openEntry(book.sharedStrings);
  const handler = new SharedStringsHandler(sink, book.limits);
  const tokenizer = new XmlTokenizer(handler, book.limits.xmlToken);
  handler.tokenizer = tokenizer;
  try {
    for await (const chunk of stream) {
      tokenizer.write(chunk as Buffer);
      if (sink.done) return;
    }
    tokenizer.end();
  } finally {
    stream.destroy();
  }
}

/** A worksheet's rows in batches; stops reading at `</sheetData>`. */
async function* sheetRows(
  book: Workbook,
  sheet: ZipEntry,
  handler: SheetHandler,
  onProgress: (done: number) => void,
): AsyncGenerator<string[][]> {
  const stream = await book.zip.openEntry(sheet);
  const tokenizer = new XmlTokenizer(handler, book.limits.xmlToken);
  handler.tokenizer = tokenizer;
  try {
    for await (const chunk of stream) {
      tokenizer.write(chunk as Buffer);
      while (tokenizer.paused) {
        if (handler.rows.length > 0) yield handler.take();
        if (handler.done) return;
        tokenizer.resume();
      }
      onProgress(Math.min(1, stream.compressedBytesRead() / Math.max(1, sheet.compressedSize)));
    }
    tokenizer.end();
    if (handler.rows.length > 0) yield handler.take();
  } finally {
    stream.destroy();
  }
}

/** Limits → XLSX_TOO_LARGE, a malformed zip or XML → XLSX_BROKEN; anything else is a bug and stays itself. */
function asFileError(err: unknown): unknown {
  if (isFileError(err)) return err;
  if (err instanceof ZipLimitError) {
    const limit = err.limit === 'entryBytes' ? 'sheetBytes' : err.limit;
    return new AppError('XLSX_TOO_LARGE', { limit, max: err.max });
  }
  if (err instanceof XmlLimitError) return new AppError('XLSX_TOO_LARGE', { limit: 'xmlToken', max: err.max });
  if (err instanceof ZipFormatError || err instanceof XmlError)
    return new AppError('XLSX_BROKEN', { cause: err.message });
  return err;
}

/**
 * Streams the rows of the first worksheet with data of an XLSX, as text cells, in batches.
 *
 * Our own bounded reader (ADR 004): the zip's central directory (platform/archive), the
 * workbook's relations for the tab order, the styles for date formats, every shared string
 * (compactly), then the sheets in tab order, each streamed through a small XML tokenizer and
 * read no further than its `</sheetData>`. Every limit in XLSX_LIMITS is enforced as the bytes
 * come; a passed one is XLSX_TOO_LARGE `{limit, max}`, anything malformed XLSX_BROKEN.
 * `onProgress(done)` reports the share (0..1) of the current sheet's compressed bytes read.
 */
export async function* readXlsxRows(
  filePath: string,
  onProgress: (done: number) => void = () => {},
  limits: Partial<XlsxLimits> = {},
): AsyncGenerator<string[][]> {
  try {
    const book = await openWorkbook(filePath, { ...XLSX_LIMITS, ...limits });
    if (book.sheets.length === 0) throw new AppError('XLSX_BROKEN', { cause: 'no worksheet' });
    const strings = new SharedStrings(book.limits);
    await readStrings(book, strings);
    for (const sheet of book.sheets) {
      const handler = new SheetHandler({ ...book, strings });
      let rows = 0;
      for await (const batch of sheetRows(book, sheet, handler, onProgress)) {
        rows += batch.length;
        yield batch;
      }
      // Only the first sheet with data is imported: once it is read, the other parts stay unread.
      if (rows > 0) break;
    }
    onProgress(1);
  } catch (err) {
    throw asFileError(err);
  }
}

/** Characters a sample may hold in all (it is sent back to the web); rows beyond are left out. */
const SAMPLE_CHARS = 4 * 1024 * 1024;

/**
 * The first `maxRows` rows of the first worksheet with data, without reading every shared
 * string: the sheet's first rows are read first, then the shared strings only up to the last
 * one they use (Excel numbers strings in order of first use, so that is usually a few hundred).
 */
export async function readXlsxSample(
  filePath: string,
  maxRows: number,
  limits: Partial<XlsxLimits> = {},
): Promise<string[][]> {
  try {
    const book = await openWorkbook(filePath, { ...XLSX_LIMITS, ...limits });
    if (book.sheets.length === 0) throw new AppError('XLSX_BROKEN', { cause: 'no worksheet' });
    for (const sheet of book.sheets) {
      const handler = new SheetHandler({ ...book, strings: null });
      const rows: string[][] = [];
      let chars = 0;
      const it = sheetRows(book, sheet, handler, () => {});
      try {
        for await (const batch of it) {
          rows.push(...batch);
          for (const row of batch) for (const cell of row) chars += cell.length;
          if (rows.length >= maxRows || chars >= SAMPLE_CHARS) break;
        }
      } finally {
        await it.return(undefined);
      }
      if (rows.length === 0) continue;
      const sample = rows.slice(0, maxRows);
      const sampleSet = new Set(sample);
      const wanted = new Set<number>();
      for (const [row, , index] of handler.pending) if (sampleSet.has(row)) wanted.add(index);
      const strings = new SelectedStrings(wanted, book.limits);
      await readStrings(book, strings);
      for (const [row, col, index] of handler.pending) {
        if (sampleSet.has(row)) row[col] = strings.get(index).trim();
      }
      const out: string[][] = [];
      chars = 0;
      for (const row of sample) {
        while (row.length > 0 && row[row.length - 1] === '') row.pop();
        if (row.length === 0) continue;
        const rowChars = row.reduce((sum, cell) => sum + cell.length, 0);
        if (rowChars > book.limits.rowChars)
          throw new AppError('XLSX_TOO_LARGE', { limit: 'rowChars', max: book.limits.rowChars });
        chars += rowChars;
        if (chars > SAMPLE_CHARS && out.length > 0) break;
        out.push(row);
      }
      if (out.length > 0) return out;
      // Every sampled row held only blank shared strings: read the plain way (rare).
      return await firstRows(filePath, maxRows, limits);
    }
    return [];
  } catch (err) {
    throw asFileError(err);
  }
}

async function firstRows(filePath: string, maxRows: number, limits: Partial<XlsxLimits>): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const batch of readXlsxRows(filePath, () => {}, limits)) {
    rows.push(...batch);
    if (rows.length >= maxRows) break;
  }
  return rows.slice(0, maxRows);
}
