/**
 * XLSX through the whole server, one child process per file (see lists-import.bench.ts), with
 * the server's RSS (the whole process: main thread, worker threads, PGlite when in use) sampled
 * every 25 ms from just before the upload, and again 5 s after the list is done (after a GC):
 *
 * - a 300,000-row workbook written by exceljs (shared strings, styles, a date column);
 * - the zip bomb of issue 9: ~5 MB whose xl/sharedStrings.xml inflates to ~2.1 GB of one short
 *   string repeated (refused at upload by the sample's worker thread);
 * - the same bomb padded so its declared ratio looks harmless: the sample passes (it needs one
 *   string), the import's worker thread meets it and stops on the counted ratio.
 *
 * Goal (issue 9): each stays within idle + 400 MB and gives the memory back.
 *
 *   npm run bench -- lists-xlsx            # BENCH_XLSX_ROWS=100000 for a quicker run
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sheetXml, xlsxBuffer } from '../test/xlsx-builder.test-support.ts';
import { sharedStringsBomb } from '../test/zip-writer.test-support.ts';
import { runChild } from './lists-import.bench.ts';
import type { BenchContext, BenchFigures } from './run.ts';
import { generateXlsx } from './xlsx-file.ts';

const ROWS = Number(process.env.BENCH_XLSX_ROWS ?? 300_000);

/** The bomb: `padded` adds junk inside the shared strings entry until the declared ratio is 200. */
export function writeBomb(file: string, options: { padded: boolean }): { bytes: number; inflatedBytes: number } {
  const { compressed, size } = sharedStringsBomb(2000, { crc: false });
  const body = options.padded
    ? Buffer.concat([compressed, Buffer.alloc(Math.ceil(size / 200) - compressed.length, 0x55)])
    : compressed;
  const rows =
    '<row r="1"><c r="A1" t="inlineStr"><is><t>nome</t></is></c><c r="B1" t="inlineStr"><is><t>telefone</t></is></c></row>' +
    '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2"><v>11912345678</v></c></row>';
  const parts: Parameters<typeof xlsxBuffer>[0]['parts'] = {
    'xl/sharedStrings.xml': { method: 8, compressed: body, size },
  };
  fs.writeFileSync(file, xlsxBuffer({ sheets: [{ xml: sheetXml(rows) }], parts }));
  return { bytes: fs.statSync(file).size, inflatedBytes: size };
}

const pick = (f: BenchFigures, prefix: string, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => k in f).map((k) => [`${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`, f[k]!]));

const KEYS = [
  'fileMb',
  'seconds',
  'uploadSeconds',
  'importSeconds',
  'status',
  'errorCode',
  'baselineRssMb',
  'peakRssMb',
  'peakRssAboveIdleMb',
  'rssAfterMb',
  'rssAfterAboveIdleMb',
  'workerReadParseMs',
  'parseOnlySeconds',
  'total',
  'valid',
];

export async function run(ctx: BenchContext): Promise<BenchFigures> {
  const db: Record<string, string> = ctx.db.connectionString ? { databaseUrl: ctx.db.connectionString } : {};
  const big = path.join(os.tmpdir(), `ecoa-bench-lists-${ROWS}.xlsx`);
  if (!fs.existsSync(big)) await generateXlsx(big, ROWS);
  const bomb = path.join(os.tmpdir(), 'ecoa-bench-xlsx-bomb.xlsx');
  const bombInfo = writeBomb(bomb, { padded: false });
  const late = path.join(os.tmpdir(), 'ecoa-bench-xlsx-bomb-padded.xlsx');
  writeBomb(late, { padded: true });

  const bigFigures = await runChild({ kind: ctx.kind, file: big, rows: String(ROWS), fileName: 'bench.xlsx', ...db });
  const bombFigures = await runChild({
    kind: ctx.kind,
    file: bomb,
    rows: '1',
    fileName: 'bomba.xlsx',
    expectError: 'XLSX_TOO_LARGE',
    ...db,
  });
  const lateFigures = await runChild({
    kind: ctx.kind,
    file: late,
    rows: '1',
    fileName: 'bomba-acolchoada.xlsx',
    expectError: 'XLSX_TOO_LARGE',
    ...db,
  });
  const all = [bigFigures, bombFigures, lateFigures];
  return {
    db: ctx.kind,
    xlsxRows: ROWS,
    ...pick(bigFigures, 'xlsx', KEYS),
    bombInflatedMb: Math.round(bombInfo.inflatedBytes / 1024 / 1024),
    ...pick(bombFigures, 'bomb', KEYS),
    ...pick(lateFigures, 'paddedBomb', KEYS),
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
    goalMemoryMb: 400,
    goalMet: all.every((f) => Number(f.peakRssAboveIdleMb) < 400 && Number(f.rssAfterAboveIdleMb) < 100),
  };
}
