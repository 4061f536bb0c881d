/**
 * A folder of the Receita's files: which are which, and their rows as a stream. The official
 * zips (`Estabelecimentos0.zip`…, `Empresas0.zip`…, `Municipios.zip`) or the files already
 * extracted from them (`K3241.K03200Y0.D51108.ESTABELE`, `….EMPRECSV`, `….MUNICCSV`). Every byte
 * is read chunk by chunk: a whole file (several GB) is never in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { openZip, type ZipLimits } from '../../platform/archive/zip.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { CsvParser } from '../../platform/text/csv.ts';

export type CnpjFileKind = 'establishments' | 'companies' | 'cities';

export type CnpjSourceFile = { kind: CnpjFileKind; path: string; name: string; zipped: boolean };

const GiB = 1024 ** 3;
/** The Receita's zips are big but trusted in shape: one text file each, deflated 4–10×. */
export const CNPJ_ZIP_LIMITS: Partial<ZipLimits> = {
  maxEntries: 16,
  maxEntryBytes: 256 * GiB,
  maxTotalBytes: 256 * GiB,
  maxRatio: 200,
};

const ZIP_NAMES: [RegExp, CnpjFileKind][] = [
  [/^estabelecimentos\d*\.zip$/i, 'establishments'],
  [/^empresas\d*\.zip$/i, 'companies'],
  [/^municipios\.zip$/i, 'cities'],
];
const EXTRACTED_NAMES: [RegExp, CnpjFileKind][] = [
  [/estabele/i, 'establishments'],
  [/emprecsv/i, 'companies'],
  [/municcsv/i, 'cities'],
];

function classify(name: string): { kind: CnpjFileKind; zipped: boolean } | undefined {
  for (const [pattern, kind] of ZIP_NAMES) if (pattern.test(name)) return { kind, zipped: true };
  if (/\.zip$/i.test(name)) return undefined;
  for (const [pattern, kind] of EXTRACTED_NAMES) if (pattern.test(name)) return { kind, zipped: false };
  return undefined;
}

const byNaturalName = (a: CnpjSourceFile, b: CnpjSourceFile) =>
  a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' });

/**
 * The folder's CNPJ files in the order an import reads them: cities first (the establishments
 * need their names), then companies, then establishments. When a kind is there both zipped and
 * extracted, the zips win (reading both would load every row twice).
 */
export function findCnpjFiles(folder: string): CnpjSourceFile[] {
  const found: CnpjSourceFile[] = [];
  for (const dirent of fs.readdirSync(folder, { withFileTypes: true })) {
    if (!dirent.isFile()) continue;
    const kind = classify(dirent.name);
    if (kind) found.push({ ...kind, name: dirent.name, path: path.join(folder, dirent.name) });
  }
  const order: CnpjFileKind[] = ['cities', 'companies', 'establishments'];
  return order.flatMap((kind) => {
    const ofKind = found.filter((f) => f.kind === kind);
    const zips = ofKind.filter((f) => f.zipped);
    return (zips.length > 0 ? zips : ofKind).sort(byNaturalName);
  });
}

/** Byte streams of a source file: each entry of a zip (one, officially), or the file itself. */
async function* byteStreams(file: CnpjSourceFile): AsyncGenerator<Readable> {
  if (!file.zipped) {
    yield fs.createReadStream(file.path, { highWaterMark: 256 * 1024 });
    return;
  }
  const zip = await openZip(file.path, CNPJ_ZIP_LIMITS);
  for (const entry of zip.entries) {
    if (!entry.isDirectory) yield await zip.openEntry(entry);
  }
}

/**
 * The file's rows in batches of about `batchRows` (fields as text: latin1 decoded, quotes and
 * `""` resolved). The consumer's pace drives the reading (the next chunk is read when it asks).
 */
export async function* readCnpjRows(file: CnpjSourceFile, batchRows = 5_000): AsyncGenerator<string[][]> {
  // Only reading errors land here: an error of the consumer's (a failed insert) ends the
  // generator through `return`, which runs the `finally` blocks and skips this catch.
  try {
    yield* rowsOf(file, batchRows);
  } catch (err) {
    throw cnpjFileInvalid(file, err);
  }
}

/**
 * CNPJ_FILE_INVALID: which file of the folder could not be read, and why (a broken or hostile
 * zip, an unclosed quote or a giant line, an I/O error), as the import's error says it.
 */
export function cnpjFileInvalid(file: CnpjSourceFile, err: unknown): AppError {
  const row = ((err as AppError).details as { row?: number } | undefined)?.row;
  const why =
    err instanceof AppError && err.code === 'CSV_MALFORMED'
      ? `aspas sem fechamento ou linha gigante${row ? ` (linha ${row})` : ''}`
      : (err as Error).message;
  return new AppError('CNPJ_FILE_INVALID', { file: file.name }, { why });
}

async function* rowsOf(file: CnpjSourceFile, batchRows: number): AsyncGenerator<string[][]> {
  for await (const stream of byteStreams(file)) {
    const decoder = new TextDecoder('latin1');
    const parser = new CsvParser(';');
    let batch: string[][] = [];
    try {
      for await (const chunk of stream) {
        parser.push(decoder.decode(chunk as Buffer, { stream: true }), batch);
        if (batch.length >= batchRows) {
          yield batch;
          batch = [];
        }
      }
      parser.push(decoder.decode(), batch);
      parser.end(batch);
      if (batch.length > 0) yield batch;
    } finally {
      stream.destroy();
    }
  }
}
