import { AppError } from '../errors/app-error.ts';

/** A field or a row longer than this means broken quoting, not data. */
const MAX_PENDING_CHARS = 1024 * 1024;
const MAX_COLUMNS = 1000;

export const DELIMITER_CANDIDATES = [';', ',', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITER_CANDIDATES)[number];

/**
 * Picks the separator from the first lines: the candidate that appears the same number of
 * times (outside quotes) on most lines wins; `;` (Excel in Brazil) wins ties, then `,`.
 * A one-column file gets `,`.
 */
export function detectDelimiter(sample: string): Delimiter {
  const lines = splitSampleLines(sample).slice(0, 50);
  if (lines.length === 0) return ',';
  let best: Delimiter = ',';
  let bestScore = 0;
  for (const candidate of DELIMITER_CANDIDATES) {
    const counts = lines.map((line) => countOutsideQuotes(line, candidate));
    const freq = new Map<number, number>();
    for (const c of counts) if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1);
    let modeCount = 0;
    let mode = 0;
    for (const [c, n] of freq) {
      if (n > modeCount || (n === modeCount && c > mode)) {
        modeCount = n;
        mode = c;
      }
    }
    if (mode === 0) continue;
    // Share of lines agreeing on the mode, a little bonus for more columns.
    const score = modeCount / lines.length + Math.min(mode, 20) * 0.001;
    if (score > bestScore + 1e-9) {
      bestScore = score;
      best = candidate;
    }
  }
  return best;
}

function splitSampleLines(sample: string): string[] {
  const lines: string[] = [];
  let start = 0;
  let inQuotes = false;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 34) inQuotes = !inQuotes;
    else if (!inQuotes && (c === 10 || c === 13)) {
      if (i > start) lines.push(sample.slice(start, i));
      start = i + 1;
    }
  }
  // The last line of a sample may be cut: leave it out unless it is the only one.
  if (lines.length === 0 && start < sample.length) lines.push(sample.slice(start));
  return lines.filter((l) => l.trim().length > 0);
}

function countOutsideQuotes(line: string, delimiter: string): number {
  const d = delimiter.charCodeAt(0);
  let n = 0;
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) inQuotes = !inQuotes;
    else if (c === d && !inQuotes) n++;
  }
  return n;
}

/**
 * A streaming RFC 4180 parser that forgives what spreadsheets write: `"` quoting with `""`
 * escapes, fields spanning lines, CRLF/LF/CR line ends, blank lines skipped, stray quotes
 * inside unquoted fields kept as text. Feed it decoded text with `push`; it returns the rows
 * completed so far and keeps the unfinished one for the next chunk.
 */
export class CsvParser {
  private readonly delim: number;
  private readonly delimChar: string;
  /** Line ends are lone CRs (old Mac exports): only the slow parser handles those. */
  private crOnly: boolean | undefined;
  private pending = '';
  /** Rows emitted so far (for error messages). */
  rows = 0;

  constructor(delimiter: string) {
    this.delim = delimiter.charCodeAt(0);
    this.delimChar = delimiter;
  }

  push(chunk: string, out: string[][] = []): string[][] {
    const text = this.pending.length > 0 ? this.pending + chunk : chunk;
    const consumed = this.parse(text, false, out);
    this.pending = consumed < text.length ? text.slice(consumed) : '';
    if (this.pending.length > MAX_PENDING_CHARS) throw new AppError('CSV_MALFORMED', { row: this.rows + 1 });
    return out;
  }

  end(out: string[][] = []): string[][] {
    if (this.pending.length > 0) {
      const text = this.pending;
      this.pending = '';
      this.parse(text, true, out);
    }
    return out;
  }

  /**
   * Parses whole rows from `s`; returns how many characters were consumed. Fast path: a line
   * with no quote is cut at its newline and split natively; a line with a quote (or a file with
   * old Mac CR-only line ends) goes through the character-by-character parser.
   */
  private parse(s: string, final: boolean, out: string[][]): number {
    const len = s.length;
    if (this.crOnly === undefined && len > 0) {
      const cr = s.indexOf('\r');
      this.crOnly = cr !== -1 && s.indexOf('\n') === -1 && cr < len - 1;
    }
    if (this.crOnly) return this.parseSlow(s, 0, final, out);
    const delimiter = this.delimChar;
    let pos = 0;
    let nextQuote = -2;
    while (pos < len) {
      if (nextQuote !== -1 && nextQuote < pos) nextQuote = s.indexOf('"', pos);
      let nl = s.indexOf('\n', pos);
      if (nl === -1) {
        if (!final) return pos;
        nl = len;
      }
      if (nextQuote !== -1 && nextQuote < nl) {
        // A quoted field: parse this one row slowly.
        const next = this.parseSlow(s, pos, final, out, true);
        if (next === pos) return pos;
        pos = next;
        continue;
      }
      let end = nl;
      if (end > pos && s.charCodeAt(end - 1) === 13) end--;
      if (end > pos) {
        const row = s.slice(pos, end).split(delimiter);
        if (row.length > MAX_COLUMNS) throw new AppError('CSV_MALFORMED', { row: this.rows + 1 });
        this.emit(row, out);
      }
      pos = nl + 1;
    }
    return Math.min(pos, len);
  }

  /** The character-by-character parser, from `start`; `oneRow` stops after one row. */
  private parseSlow(s: string, start: number, final: boolean, out: string[][], oneRow = false): number {
    const delim = this.delim;
    const len = s.length;
    let pos = start;
    rows: while (pos < len) {
      if (oneRow && pos > start) return pos;
      const rowStart = pos;
      const row: string[] = [];
      let i = pos;
      for (;;) {
        // One field starting at i.
        if (i < len && s.charCodeAt(i) === 34) {
          // Quoted field.
          let j = i + 1;
          let value = '';
          let segStart = j;
          for (;;) {
            const q = s.indexOf('"', j);
            if (q === -1) {
              if (!final) return rowStart;
              throw new AppError('CSV_MALFORMED', { row: this.rows + 1 });
            }
            if (q + 1 < len && s.charCodeAt(q + 1) === 34) {
              value += s.slice(segStart, q + 1);
              j = q + 2;
              segStart = j;
              continue;
            }
            if (q + 1 >= len && !final) return rowStart; // can't tell "" from the end yet
            value += s.slice(segStart, q);
            i = q + 1;
            break;
          }
          // Text after the closing quote up to the delimiter is kept (lenient).
          let k = i;
          while (k < len) {
            const c = s.charCodeAt(k);
            if (c === delim || c === 10 || c === 13) break;
            k++;
          }
          if (k > i) value += s.slice(i, k);
          i = k;
          row.push(value);
        } else {
          let k = i;
          while (k < len) {
            const c = s.charCodeAt(k);
            if (c === delim || c === 10 || c === 13) break;
            k++;
          }
          row.push(s.slice(i, k));
          i = k;
        }
        if (row.length > MAX_COLUMNS) throw new AppError('CSV_MALFORMED', { row: this.rows + 1 });
        if (i >= len) {
          if (!final) return rowStart;
          this.emit(row, out);
          pos = len;
          continue rows;
        }
        const c = s.charCodeAt(i);
        if (c === delim) {
          i++;
          if (i >= len) {
            if (!final) return rowStart;
            row.push('');
            this.emit(row, out);
            pos = len;
            continue rows;
          }
          continue;
        }
        // End of line: CRLF, LF or CR.
        if (c === 13) {
          if (i + 1 >= len && !final) return rowStart;
          i += i + 1 < len && s.charCodeAt(i + 1) === 10 ? 2 : 1;
        } else {
          i++;
        }
        this.emit(row, out);
        pos = i;
        continue rows;
      }
    }
    return pos;
  }

  private emit(row: string[], out: string[][]): void {
    // Blank lines (and lines of empty fields, `;;;`) are skipped.
    for (let i = 0; i < row.length; i++) {
      if (row[i]!.length > 0) {
        this.rows++;
        out.push(row);
        return;
      }
    }
  }
}
