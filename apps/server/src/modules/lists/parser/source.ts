import fs from 'node:fs';
import { sanitizeText } from '@ecoa/shared';
import { AppError } from '../../../platform/errors/app-error.ts';
import { CsvParser, type Delimiter, detectDelimiter } from '../../../platform/text/csv.ts';
import {
  detectEncoding,
  detectEncodingOfSample,
  type FileKind,
  readHead,
  SNIFF_BYTES,
  sniffKind,
  type TextEncoding,
} from './sniff.ts';
import { readXlsxRows } from './xlsx.ts';

export type SpreadsheetInfo = {
  kind: FileKind;
  /** CSV only. */
  encoding?: TextEncoding;
  delimiter?: Delimiter;
  size: number;
};

export type Spreadsheet = SpreadsheetInfo & {
  /** Bytes of the file read so far (progress = bytesRead / size). */
  bytesRead(): number;
  /** The rows as text cells (sanitized, see sanitizeCells), in batches; blank rows skipped. Iterate once. */
  rows(): AsyncGenerator<string[][]>;
};

const READ_CHUNK = 128 * 1024;
const MULTILINE = { multiline: true };

/**
 * Opens an uploaded spreadsheet for streaming: decides the type by content, and for a CSV the
 * encoding (BOM, UTF-8 check, else Windows-1252) and the separator.
 * `sampleOnly`: the file is only the beginning of the real one (the preview), so the UTF-8
 * check looks at the sample and a cut last line is tolerated.
 */
export async function openSpreadsheet(filePath: string, options: { sampleOnly?: boolean } = {}): Promise<Spreadsheet> {
  const size = (await fs.promises.stat(filePath)).size;
  if (size === 0) throw new AppError('EMPTY_FILE');
  const head = await readHead(filePath, SNIFF_BYTES);
  const kind = sniffKind(head);
  let bytesRead = 0;

  if (kind === 'xlsx') {
    // The zip is read part by part (not front to back): progress is the share of sheet bytes read.
    return {
      kind,
      size,
      bytesRead: () => bytesRead,
      rows: () =>
        sanitizedRows(
          readXlsxRows(filePath, (done) => {
            bytesRead = Math.round(done * size);
          }),
        ),
    };
  }

  const encoding = options.sampleOnly
    ? detectEncodingOfSample(head, head.length === size)
    : await detectEncoding(filePath);
  const sampleText = new TextDecoder(encoding).decode(head);
  if (sampleText.replace(/[\s\ufeff]/g, '').length === 0) throw new AppError('EMPTY_FILE');
  const delimiter = detectDelimiter(sampleText.replace(/^\ufeff/, ''));
  const sampleOnly = options.sampleOnly === true;

  return {
    kind,
    encoding,
    delimiter,
    size,
    bytesRead: () => bytesRead,
    rows: () => sanitizedRows(csvRows()),
  };

  async function* csvRows(): AsyncGenerator<string[][]> {
    // TextDecoder strips a UTF-8/UTF-16 BOM itself (ignoreBOM: false).
    const decoder = new TextDecoder(encoding);
    const parser = new CsvParser(delimiter);
    const stream = fs.createReadStream(filePath, { highWaterMark: READ_CHUNK });
    try {
      for await (const chunk of stream) {
        bytesRead += (chunk as Buffer).length;
        const rows = parser.push(decoder.decode(chunk as Buffer, { stream: true }));
        if (rows.length > 0) yield rows;
      }
      const tail = decoder.decode();
      const rows = tail ? parser.push(tail) : [];
      try {
        parser.end(rows);
      } catch (err) {
        // A preview sample ends mid-row: drop the cut row.
        if (!sampleOnly) throw err;
      }
      if (rows.length > 0) yield rows;
    } finally {
      stream.destroy();
    }
  }
}

/**
 * Every cell of a batch through the one text sanitizer, in place: a NUL or a lone surrogate in
 * a cell would otherwise fail its insert (PostgreSQL refuses them in text and jsonb). Tabs and
 * line breaks stay: a quoted cell may span lines, and the export gives it back as it came.
 */
export function sanitizeCells(batch: string[][]): string[][] {
  for (const row of batch) {
    for (let i = 0; i < row.length; i++) row[i] = sanitizeText(row[i]!, MULTILINE);
  }
  return batch;
}

async function* sanitizedRows(rows: AsyncGenerator<string[][]>): AsyncGenerator<string[][]> {
  for await (const batch of rows) yield sanitizeCells(batch);
}
