import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/server.test-support.ts';
import { inlineRow, sheetXml, xlsxBuffer } from '../../../../test/xlsx-builder.test-support.ts';
import { AppError } from '../../../platform/errors/app-error.ts';
import { workerMemoryError } from './errors.ts';
import { readSpreadsheetSample, sampleWorkersRunning, sampleXlsxInWorker } from './sample.ts';
import { readXlsxSample } from './xlsx.ts';

const fixture = (name: string) => path.resolve(import.meta.dirname, '../fixtures', name);
const dir = tempDir('ecoa-sample-');

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('readSpreadsheetSample', () => {
  it('samples an XLSX in a worker thread, the same rows as in this one', async () => {
    const { sheet, rows } = await readSpreadsheetSample(fixture('contacts.xlsx'), 50);
    expect(sheet).toEqual({ kind: 'xlsx', size: fs.statSync(fixture('contacts.xlsx')).size });
    expect(rows).toEqual(await readXlsxSample(fixture('contacts.xlsx'), 50));
    expect(rows[1]).toEqual(['Ana Souza', '11912345678', 'Ótica Boa Vista', '17/05/1990', '150.5']);
  });

  it('samples a CSV here, with its encoding and separator', async () => {
    const { sheet, rows } = await readSpreadsheetSample(fixture('excel-br-windows1252.csv'), 3);
    expect(sheet).toMatchObject({ kind: 'csv', encoding: 'windows-1252', delimiter: ';' });
    expect(rows).toHaveLength(3);
  });

  it('brings the worker’s file errors back as they are', async () => {
    const broken = await failure(readSpreadsheetSample(fixture('broken-truncated.xlsx'), 50));
    expect(broken.code).toBe('XLSX_BROKEN');
    const file = path.join(dir, 'wide.xlsx');
    fs.writeFileSync(file, xlsxBuffer({ sheets: [{ xml: sheetXml('<row r="1"><c r="XFE1"><v>1</v></c></row>') }] }));
    const wide = await failure(readSpreadsheetSample(file, 50));
    expect(wide).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'columns', max: 16_384 } });
  });

  it('a sample that exhausts its thread’s heap is XLSX_TOO_LARGE, and this thread goes on', async () => {
    const file = path.join(dir, 'heavy.xlsx');
    let rows = '';
    for (let r = 1; r <= 12; r++) {
      rows += inlineRow(
        r,
        Array.from({ length: 300 }, () => crypto.randomBytes(1500).toString('base64')),
      );
    }
    fs.writeFileSync(file, xlsxBuffer({ sheets: [{ xml: sheetXml(rows) }] }));
    const err = await failure(
      sampleXlsxInWorker(file, 50, { resourceLimits: { maxOldGenerationSizeMb: 6, maxYoungGenerationSizeMb: 2 } }),
    );
    expect(err).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'heapMb', max: 6 } });
    // With the real limits the same file samples fine.
    expect((await sampleXlsxInWorker(file, 50)).length).toBeGreaterThan(0);
  });

  it('runs at most two sample threads at once, the others wait their turn', async () => {
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, sampleWorkersRunning());
    }, 5);
    const samples = await Promise.all(Array.from({ length: 5 }, () => sampleXlsxInWorker(fixture('contacts.xlsx'), 2)));
    clearInterval(watch);
    for (const rows of samples) expect(rows).toHaveLength(2);
    expect(most).toBe(2);
    expect(sampleWorkersRunning()).toBe(0);
  });

  it('a sample past its deadline is XLSX_TOO_LARGE', async () => {
    const err = await failure(sampleXlsxInWorker(fixture('contacts.xlsx'), 50, { deadlineMs: 1 }));
    expect(err).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'seconds' } });
  });
});

describe('workerMemoryError', () => {
  it('recognises a worker thread killed by its heap cap', async () => {
    const worker = new Worker('const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));', {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    });
    const err = await new Promise<Error>((resolve) => worker.once('error', resolve));
    expect(workerMemoryError(err, 'xlsx', 8)).toMatchObject({ code: 'XLSX_TOO_LARGE', details: { limit: 'heapMb' } });
    expect(workerMemoryError(err, 'csv', 8)).toMatchObject({ code: 'IMPORT_TOO_LARGE', details: { max: 8 } });
    expect(workerMemoryError(new Error('other'), 'csv', 8)).toBeUndefined();
  });
});
