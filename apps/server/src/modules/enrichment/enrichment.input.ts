/**
 * What an enrichment is asked to look up: CNPJs pasted or read from a spreadsheet (the lists'
 * reader: CSV in any encoding and separator, or XLSX), checked and deduplicated.
 */
import { cnpjChars, cnpjProblem, type EnrichmentInvalid, MAX_ENRICHMENT_CNPJS, MAX_INVALID_SHOWN } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import { openSpreadsheet } from '../lists/index.ts';

export type CheckedCnpjs = {
  /** The distinct valid CNPJs (14 characters, upper-case), in input order. */
  cnpjs: string[];
  /** Inputs = valid + invalid + duplicates. */
  total: number;
  invalid: number;
  duplicates: number;
  /** The first invalid inputs with their reason. */
  invalidItems: EnrichmentInvalid[];
};

/**
 * A spreadsheet keeps a CNPJ as a number and drops its leading zeros ("191" for
 * 00.000.000/0001-91's first digits…): a bare number of 11 to 13 digits gets them back.
 */
function restoreZeros(chars: string): string {
  return /^\d{11,13}$/.test(chars) ? chars.padStart(14, '0') : chars;
}

/**
 * An invalid input as the user sees it again: its first 40 characters, never half of an emoji
 * (a lone surrogate makes the row's jsonb refuse the whole enrichment).
 */
function shown(value: string): string {
  const cut = value.slice(0, 40);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

export function checkCnpjs(values: Iterable<string>): CheckedCnpjs {
  const seen = new Set<string>();
  const cnpjs: string[] = [];
  const invalidItems: EnrichmentInvalid[] = [];
  let total = 0;
  let invalid = 0;
  let duplicates = 0;
  for (const raw of values) {
    const value = raw.trim();
    if (value === '') continue;
    total++;
    if (total > MAX_ENRICHMENT_CNPJS) throw new AppError('ENRICHMENT_TOO_LARGE');
    const cnpj = restoreZeros(cnpjChars(value));
    const problem = cnpjProblem(cnpj);
    if (problem) {
      invalid++;
      if (invalidItems.length < MAX_INVALID_SHOWN) invalidItems.push({ value: shown(value), reason: problem });
    } else if (seen.has(cnpj)) {
      duplicates++;
    } else {
      seen.add(cnpj);
      cnpjs.push(cnpj);
    }
  }
  return { cnpjs, total, invalid, duplicates, invalidItems };
}

/** Rows looked at to find the CNPJ column. */
const SAMPLE_ROWS = 200;

/**
 * The CNPJ column of a sheet: the one whose header says "CNPJ", else the one with the most
 * valid CNPJs in the first rows. Returns its index and whether row 0 is a header.
 */
export function findCnpjColumn(sample: string[][]): { column: number; header: boolean } {
  const first = sample[0] ?? [];
  const named = first.findIndex((cell) => /cnpj/i.test(cell) && cnpjProblem(restoreZeros(cnpjChars(cell))) !== null);
  if (named >= 0) return { column: named, header: true };
  const width = Math.max(0, ...sample.map((r) => r.length));
  let best = -1;
  let bestCount = 0;
  for (let c = 0; c < width; c++) {
    const count = sample.filter((r) => r[c] && cnpjProblem(restoreZeros(cnpjChars(r[c]!))) === null).length;
    if (count > bestCount) [best, bestCount] = [c, count];
  }
  if (best < 0) throw new AppError('NO_CNPJ_COLUMN');
  const headerCell = first[best] ?? '';
  return { column: best, header: /[a-z]/i.test(headerCell) && !/\d{4}/.test(headerCell) };
}

/** The CNPJ column's cells of an uploaded CSV/XLSX, read as a stream (the rows are never all in memory). */
export async function cnpjsFromFile(filePath: string): Promise<CheckedCnpjs> {
  const sheet = await openSpreadsheet(filePath);
  const sample: string[][] = [];
  let found: { column: number; header: boolean } | undefined;
  const cells: string[] = [];
  const take = (rows: string[][]) => {
    for (const row of rows) cells.push(row[found!.column] ?? '');
    if (cells.length > MAX_ENRICHMENT_CNPJS + 1) throw new AppError('ENRICHMENT_TOO_LARGE');
  };
  for await (const batch of sheet.rows()) {
    if (found) {
      take(batch);
      continue;
    }
    sample.push(...batch);
    if (sample.length >= SAMPLE_ROWS) {
      found = findCnpjColumn(sample);
      take(found.header ? sample.slice(1) : sample);
    }
  }
  if (!found) {
    if (sample.length === 0) throw new AppError('NO_DATA_ROWS');
    found = findCnpjColumn(sample);
    take(found.header ? sample.slice(1) : sample);
  }
  return checkCnpjs(cells);
}
