export const MiB = 1024 * 1024;
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
