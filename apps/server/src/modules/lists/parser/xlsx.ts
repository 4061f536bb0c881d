import path from 'node:path';
import type { FileLimit } from '@ecoa/shared';
import {
  openZip,
  type ZipArchive,
  type ZipEntry,
  ZipFormatError,
  ZipLimitError,
} from '../../../platform/archive/zip.ts';
import type { AppError } from '../../../platform/errors/app-error.ts';
import { fileError, fileLimitError, isFileError } from './errors.ts';
import { type XmlAttributes, XmlError, type XmlHandler, XmlLimitError, XmlTokenizer } from './xml.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * What an XLSX may cost us (ADR 004). Past any of them the file is refused with XLSX_TOO_LARGE
 * `{limit, max}`, suggesting a CSV. Reading is streamed: the byte limits bound time, and what is
 * kept (shared strings, a batch of rows) is bounded by the others.
 */
export const XLSX_LIMITS: Readonly<{
  entries: number;
  partBytes: number;
  sheetBytes: number;
  totalBytes: number;
  ratio: number;
  ratioMinBytes: number;
  sharedStrings: number;
  sharedStringBytes: number;
  styles: number;
  columns: number;
  cellChars: number;
  rowChars: number;
  xmlToken: number;
}> = {
  /** Parts in the zip (a workbook has tens; images and sheets add some). */
  entries: 10_000,
  /** Workbook, relations and styles: streamed, only the few facts we need are kept. */
  partBytes: 16 * MiB,
  /** One worksheet or the shared strings, inflated: Excel's 1,048,576-row maximum at ~1 KB a row. */
  sheetBytes: 2 * GiB,
  /** Everything read from one file, inflated. */
  totalBytes: 3 * GiB,
  /** Inflated/compressed of a part once it passes 1 MiB: spreadsheets deflate 5–20×, bombs ~1,000×. */
  ratio: 200,
  ratioMinBytes: 1 * MiB,
  /** Shared strings: 5 million (1M rows × 5 text columns) and 128 MiB of UTF-8, ~150 MB held. */
  sharedStrings: 5_000_000,
  sharedStringBytes: 128 * MiB,
  /** Cell formats in styles.xml (Excel allows 64,000). */
  styles: 100_000,
  /** Excel's own limits: columns A…XFD and characters in a cell. */
  columns: 16_384,
  cellChars: 32_767,
  /** Characters in one row, all cells together (as the CSV reader's longest line). */
  rowChars: 1024 * 1024,
  /** A tag or a text run of the XML. */
  xmlToken: 1024 * 1024,
};

export type XlsxLimits = typeof XLSX_LIMITS;

export function xlsxTooLarge(limit: FileLimit, max: number): AppError {
  return fileLimitError('XLSX_TOO_LARGE', limit, max);
}

/** Rows handed out per batch, unless the batch's cells or characters fill up first. */
const BATCH_ROWS = 2_000;
const BATCH_CELLS = 1_000_000;
const BATCH_CHARS = 8 * 1024 * 1024;

const REL_OFFICE_DOCUMENT = '/officeDocument';
const REL_WORKSHEET = '/worksheet';
const REL_SHARED_STRINGS = '/sharedStrings';
const REL_STYLES = '/styles';
const SHEET_PATH = /^xl\/worksheets\/sheet(\d+)\.xml$/i;

// ---------------------------------------------------------------------------------------------
// Streaming a part through a handler

async function parsePart(
  zip: ZipArchive,
  entry: ZipEntry,
  handler: XmlHandler & { done?: boolean },
  limits: XlsxLimits,
): Promise<void> {
  let stream: Awaited<ReturnType<ZipArchive['openEntry']>> | undefined;
  try {
    stream = await zip.openEntry(entry, { maxBytes: limits.partBytes });
    const tokenizer = new XmlTokenizer(handler, limits.xmlToken);
    for await (const chunk of stream) {
      tokenizer.write(chunk as Buffer);
      if (handler.done) return;
    }
    tokenizer.end();
  } catch (err) {
    if (err instanceof ZipLimitError && err.limit === 'entryBytes') {
      throw xlsxTooLarge('partBytes', limits.partBytes);
    }
    throw err;
  } finally {
    stream?.destroy();
  }
}

/** A handler that ignores text: relations, workbook and styles only read attributes. */
abstract class AttributesHandler implements XmlHandler {
  wantText = false;
  abstract open(name: string, attributes: XmlAttributes): void;
  close(_name: string): void {}
  text(_text: string): void {}
}

type Relation = { type: string; target: string };

class RelationsHandler extends AttributesHandler {
  readonly byId = new Map<string, Relation>();
  constructor(private readonly baseDir: string) {
    super();
  }
  open(name: string, a: XmlAttributes): void {
    if (name !== 'Relationship' || a.get('TargetMode') === 'External') return;
    const id = a.get('Id');
    const target = a.get('Target');
    if (id === undefined || target === undefined) return;
    this.byId.set(id, { type: a.get('Type') ?? '', target: resolveTarget(this.baseDir, target) });
  }
  ofType(suffix: string): string | undefined {
    for (const rel of this.byId.values()) if (rel.type.endsWith(suffix)) return rel.target;
    return undefined;
  }
}

/** A relation target → the zip path it names (relative to the source part's folder, or absolute). */
function resolveTarget(baseDir: string, target: string): string {
  const joined = target.startsWith('/') ? target.slice(1) : path.posix.join(baseDir, target);
  return path.posix.normalize(joined).replace(/^(\.\.\/)+/, '');
}

function relsPathOf(partPath: string): string {
  const dir = path.posix.dirname(partPath);
  return `${dir === '.' ? '' : `${dir}/`}_rels/${path.posix.basename(partPath)}.rels`;
}

class WorkbookHandler extends AttributesHandler {
  date1904 = false;
  readonly sheetRelIds: string[] = [];
  open(name: string, a: XmlAttributes): void {
    if (name === 'sheet') {
      const id = a.get('id');
      if (id !== undefined) this.sheetRelIds.push(id);
    } else if (name === 'workbookPr') {
      const v = a.get('date1904');
      this.date1904 = v === '1' || v === 'true';
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Styles: which cell formats show numbers as dates

/** Built-in number formats that are dates or times (ECMA-376 18.8.30, and the East Asian ones). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/** A custom format code shows a date or time when, outside quotes, brackets and escapes, it has d/m/y/h/s. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/[\\_*]./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

class StylesHandler extends AttributesHandler {
  constructor(private readonly limits: XlsxLimits) {
    super();
  }
  private readonly customDates = new Map<number, boolean>();
  private readonly xfFormats: number[] = [];
  private section = '';

  open(name: string, a: XmlAttributes): void {
    if (name === 'numFmts' || name === 'cellXfs' || name === 'cellStyleXfs' || name === 'dxfs') {
      this.section = name;
    } else if (name === 'numFmt' && this.section === 'numFmts') {
      const id = Number(a.get('numFmtId'));
      if (Number.isInteger(id)) this.customDates.set(id, isDateFormat(a.get('formatCode') ?? ''));
    } else if (name === 'xf' && this.section === 'cellXfs') {
      if (this.xfFormats.length >= this.limits.styles) throw xlsxTooLarge('styles', this.limits.styles);
      this.xfFormats.push(Number(a.get('numFmtId') ?? 0));
    }
  }
  override close(name: string): void {
    if (name === this.section) this.section = '';
  }

  /** Per cell format index (a cell's `s`): 1 when it shows a date. */
  dateStyles(): Uint8Array {
    const out = new Uint8Array(this.xfFormats.length);
    this.xfFormats.forEach((id, i) => {
      const custom = this.customDates.get(id);
      out[i] = (custom ?? BUILTIN_DATE_FORMATS.has(id)) ? 1 : 0;
    });
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Shared strings

/** `_x000D_` escapes (OOXML's way to store characters XML cannot) → the characters. */
function unescapeOoxml(text: string): string {
  if (text.indexOf('_x') === -1) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

type StringSink = { add(text: string): void; done: boolean };

/**
 * Every shared string, as UTF-8 in 4 MiB slabs with one start offset per string (no JS string
 * per entry: millions of small strings would cost ~10× the memory and the heap's limit).
 */
export class SharedStrings implements StringSink {
  static readonly SLAB = 4 * MiB;
  done = false;
  count = 0;
  bytes = 0;
  private readonly slabs: Buffer[] = [];
  private readonly slabFill: number[] = [];
  /** Start address (slab × SLAB + offset) of each string, in blocks of 64K. */
  private readonly starts: Uint32Array[] = [];
  /** Recently decoded short strings (repeated values: cities, companies), direct-mapped by index. */
  private readonly cacheIndex = new Int32Array(4096).fill(-1);
  private readonly cacheText: string[] = new Array(4096).fill('');

  constructor(private readonly limits: XlsxLimits = XLSX_LIMITS) {}

  add(text: string): void {
    if (this.count >= this.limits.sharedStrings) throw xlsxTooLarge('sharedStrings', this.limits.sharedStrings);
    const last = this.slabs.length - 1;
    let slab = last;
    if (slab < 0 || this.slabFill[slab]! + text.length * 3 > SharedStrings.SLAB) {
      this.slabs.push(Buffer.allocUnsafeSlow(SharedStrings.SLAB));
      this.slabFill.push(0);
      slab = last + 1;
    }
    const offset = this.slabFill[slab]!;
    const written = this.slabs[slab]!.write(text, offset, 'utf8');
    this.bytes += written;
    if (this.bytes > this.limits.sharedStringBytes) {
      throw xlsxTooLarge('sharedStringBytes', this.limits.sharedStringBytes);
    }
    this.slabFill[slab] = offset + written;
    const block = this.count >>> 16;
    if (block === this.starts.length) this.starts.push(new Uint32Array(65_536));
    this.starts[block]![this.count & 0xffff] = slab * SharedStrings.SLAB + offset;
    this.count++;
  }

  get(index: number): string {
    if (!(index >= 0 && index < this.count)) return '';
    const slot = index & 4095;
    if (this.cacheIndex[slot] === index) return this.cacheText[slot]!;
    const text = this.decode(index);
    if (text.length <= 64) {
      this.cacheIndex[slot] = index;
      this.cacheText[slot] = text;
    }
    return text;
  }

  private decode(index: number): string {
    const start = this.starts[index >>> 16]![index & 0xffff]!;
    const slab = Math.floor(start / SharedStrings.SLAB);
    const offset = start - slab * SharedStrings.SLAB;
    let end = this.slabFill[slab]!;
    if (index + 1 < this.count) {
      const next = this.starts[(index + 1) >>> 16]![(index + 1) & 0xffff]!;
      if (next - slab * SharedStrings.SLAB < SharedStrings.SLAB && next >= start)
        end = next - slab * SharedStrings.SLAB;
    }
    return this.slabs[slab]!.toString('utf8', offset, end);
  }
}

/** Only the strings a sample refers to; the part is read no further than the last one. */
class SelectedStrings implements StringSink {
  done = false;
  private index = 0;
  private readonly last: number;
  readonly values = new Map<number, string>();
  constructor(
    private readonly wanted: Set<number>,
    private readonly limits: XlsxLimits,
  ) {
    let last = -1;
    for (const index of wanted) if (index > last) last = index;
    this.last = last;
    this.done = last < 0;
  }
  add(text: string): void {
    if (this.index >= this.limits.sharedStrings) throw xlsxTooLarge('sharedStrings', this.limits.sharedStrings);
    if (this.wanted.has(this.index)) this.values.set(this.index, text);
    if (this.index >= this.last) this.done = true;
    this.index++;
  }
  get(index: number): string {
    return this.values.get(index) ?? '';
  }
}

/** `<sst><si><t>…</t></si><si><r><t>rich</t></r><r><t> text</t></r><rPh>…</rPh></si>…` */
class SharedStringsHandler implements XmlHandler {
  wantText = false;
  tokenizer: XmlTokenizer | undefined;
  private current = '';
  private inItem = false;
  private phonetic = 0;
  constructor(
    private readonly sink: StringSink,
    private readonly limits: XlsxLimits,
  ) {}
  open(name: string): void {
    if (name === 'si') {
      this.inItem = true;
      this.current = '';
    } else if (name === 'rPh') {
      this.phonetic++;
    } else if (name === 't' && this.inItem && this.phonetic === 0) {
      this.wantText = true;
    }
  }
  close(name: string): void {
    if (name === 't') {
      this.wantText = false;
    } else if (name === 'rPh') {
      this.phonetic--;
    } else if (name === 'si') {
      this.inItem = false;
      this.sink.add(unescapeOoxml(this.current));
      this.current = '';
      // Nothing after the last wanted string is even tokenized.
      if (this.sink.done && this.tokenizer) this.tokenizer.paused = true;
    }
  }
  text(text: string): void {
    this.current += text;
    if (this.current.length > this.limits.cellChars * 2) throw xlsxTooLarge('cellChars', this.limits.cellChars);
  }
}

// ---------------------------------------------------------------------------------------------
// Worksheets

/** `AB12` → 27 (0-based column); -1 when the reference has no letters. */
function columnOf(ref: string, maxColumns: number): number {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 97 || c > 122) break;
    col = col * 26 + (c - 96);
    if (col > maxColumns) throw xlsxTooLarge('columns', maxColumns);
  }
  return i === 0 ? -1 : col - 1;
}

/**
 * An Excel date serial → dd/mm/yyyy (days since 1899-12-30, or 1904-01-01 in 1904 workbooks;
 * the time of day is rounded to the millisecond and dropped, as exceljs did).
 */
export function excelDate(serial: number, date1904: boolean): string {
  const ms = Math.round((serial - 25_569 + (date1904 ? 1462 : 0)) * 86_400_000);
  // Days since 1970-01-01 → civil date (Howard Hinnant's days_from_civil, inverted).
  const z = Math.floor(ms / 86_400_000) + 719_468;
  if (!Number.isFinite(z) || Math.abs(z) > 1e9) return '';
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${day < 10 ? '0' : ''}${day}/${month < 10 ? '0' : ''}${month}/${year}`;
}

/** A number as text: integers without decimals (phones stored as numbers stay digits). */
function numberText(value: string): string {
  const n = Number(value);
  if (value === '' || !Number.isFinite(n)) return '';
  return Number.isInteger(n) ? n.toFixed(0) : String(n);
}

type SheetOptions = {
  /** Shared strings to resolve `t="s"` cells with; null: leave them for later (`pending`). */
  strings: { get(index: number): string } | null;
  dateStyles: Uint8Array;
  date1904: boolean;
  limits: XlsxLimits;
};

/**
 * `<sheetData><row r="2"><c r="B2" s="1" t="s"><v>5</v></c>…</row>…</sheetData>`: rows as text
 * cells, placed by their `r` reference; empty rows are left out, trailing empty cells too.
 */
class SheetHandler implements XmlHandler {
  wantText = false;
  done = false;
  tokenizer: XmlTokenizer | undefined;
  rows: string[][] = [];
  /** With `strings: null`: [row, column, index] of each shared-string cell. */
  readonly pending: [string[], number, number][] = [];
  private batchCells = 0;
  private batchChars = 0;
  private cells: string[] = [];
  private rowChars = 0;
  private rowHasData = false;
  private col = 0;
  private lastCol = -1;
  private type = '';
  private style = 0;
  private value = '';
  private inCell = false;
  private inInline = false;
  private phonetic = 0;

  constructor(private readonly options: SheetOptions) {}

  open(name: string, a: XmlAttributes): void {
    switch (name) {
      case 'c': {
        const ref = a.get('r');
        const maxColumns = this.options.limits.columns;
        const col = ref === undefined ? -1 : columnOf(ref, maxColumns);
        this.col = col >= 0 ? col : this.lastCol + 1;
        if (this.col >= maxColumns) throw xlsxTooLarge('columns', maxColumns);
        this.type = a.get('t') ?? 'n';
        const s = a.get('s');
        this.style = s === undefined ? 0 : Number(s);
        this.value = '';
        this.inCell = true;
        break;
      }
      case 'v':
        if (this.inCell) this.wantText = true;
        break;
      case 'is':
        this.inInline = true;
        break;
      case 't':
        if (this.inInline && this.phonetic === 0) this.wantText = true;
        break;
      case 'rPh':
        this.phonetic++;
        break;
      case 'row':
        this.cells = [];
        this.rowChars = 0;
        this.rowHasData = false;
        this.lastCol = -1;
        break;
    }
  }

  close(name: string): void {
    switch (name) {
      case 'v':
      case 't':
        this.wantText = false;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'is':
        this.inInline = false;
        break;
      case 'c':
        this.endCell();
        break;
      case 'row':
        if (this.rowHasData) {
          this.rows.push(this.cells);
          this.batchCells += this.cells.length;
          this.batchChars += this.rowChars;
          if (this.rows.length >= BATCH_ROWS || this.batchCells >= BATCH_CELLS || this.batchChars >= BATCH_CHARS) {
            this.pause();
          }
        }
        break;
      case 'sheetData':
        // The rest of the sheet (merged cells, links, page setup) has nothing to import.
        this.done = true;
        this.pause();
        break;
    }
  }

  text(text: string): void {
    this.value += text;
    const max = this.options.limits.cellChars;
    if (this.value.length > max * 2) throw xlsxTooLarge('cellChars', max);
  }

  /** The rows so far (and a fresh batch). */
  take(): string[][] {
    const rows = this.rows;
    this.rows = [];
    this.batchCells = 0;
    this.batchChars = 0;
    return rows;
  }

  private pause(): void {
    if (this.tokenizer) this.tokenizer.paused = true;
  }

  private endCell(): void {
    this.inCell = false;
    this.wantText = false;
    const col = this.col;
    this.lastCol = col;
    const value = this.value;
    let text: string;
    switch (this.type) {
      case 's': {
        if (value === '') return;
        const index = Number(value);
        if (this.options.strings === null) {
          this.place(col, '');
          this.pending.push([this.cells, col, index]);
          this.rowHasData = true;
          return;
        }
        text = this.options.strings.get(index).trim();
        break;
      }
      case 'str':
        text = value.trim();
        break;
      case 'inlineStr':
        text = unescapeOoxml(value).trim();
        break;
      case 'b':
        text = value === '' ? '' : value === '1' || value === 'true' ? 'VERDADEIRO' : 'FALSO';
        break;
      case 'e':
        return;
      case 'd':
        text = /^\d{4}-\d{2}-\d{2}/.test(value)
          ? `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)}`
          : value.trim();
        break;
      default: {
        const dates = this.options.dateStyles;
        if (this.style > 0 && this.style < dates.length && dates[this.style] === 1) {
          const serial = Number(value);
          text = value === '' || !Number.isFinite(serial) ? '' : excelDate(serial, this.options.date1904);
        } else {
          text = numberText(value);
        }
      }
    }
    if (text === '') return;
    const { cellChars, rowChars } = this.options.limits;
    if (text.length > cellChars) throw xlsxTooLarge('cellChars', cellChars);
    this.rowChars += text.length;
    if (this.rowChars > rowChars) throw xlsxTooLarge('rowChars', rowChars);
    this.place(col, text);
    this.rowHasData = true;
  }

  /** Puts a cell at its column: gaps become empty cells; a repeated reference overwrites. */
  private place(col: number, text: string): void {
    const cells = this.cells;
    while (cells.length < col) cells.push('');
    if (col === cells.length) cells.push(text);
    else cells[col] = text;
  }
}

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
    return xlsxTooLarge(limit, err.max);
  }
  if (err instanceof XmlLimitError) return xlsxTooLarge('xmlToken', err.max);
  if (err instanceof ZipFormatError || err instanceof XmlError) return fileError('XLSX_BROKEN', { cause: err.message });
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
    if (book.sheets.length === 0) throw fileError('XLSX_BROKEN', { cause: 'no worksheet' });
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
    if (book.sheets.length === 0) throw fileError('XLSX_BROKEN', { cause: 'no worksheet' });
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
        if (rowChars > book.limits.rowChars) throw xlsxTooLarge('rowChars', book.limits.rowChars);
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
