/** A worksheet's rows, cell by cell, from its streamed XML (`<sheetData><row><c r t s><v>…`). */

import { AppError } from '../../../platform/errors/app-error.ts';
import type { XmlAttributes, XmlHandler, XmlTokenizer } from '../../../platform/xml/xml.ts';
import type { XlsxLimits } from './xlsx-limits.ts';
import { unescapeOoxml } from './xlsx-strings.ts';

/** Rows handed out per batch, unless the batch's cells or characters fill up first. */
const BATCH_ROWS = 2_000;
const BATCH_CELLS = 1_000_000;
const BATCH_CHARS = 8 * 1024 * 1024;

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
    if (col > maxColumns) throw new AppError('XLSX_TOO_LARGE', { limit: 'columns', max: maxColumns });
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
export class SheetHandler implements XmlHandler {
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
        if (this.col >= maxColumns) throw new AppError('XLSX_TOO_LARGE', { limit: 'columns', max: maxColumns });
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
    if (this.value.length > max * 2) throw new AppError('XLSX_TOO_LARGE', { limit: 'cellChars', max: max });
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
    if (text.length > cellChars) throw new AppError('XLSX_TOO_LARGE', { limit: 'cellChars', max: cellChars });
    this.rowChars += text.length;
    if (this.rowChars > rowChars) throw new AppError('XLSX_TOO_LARGE', { limit: 'rowChars', max: rowChars });
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
