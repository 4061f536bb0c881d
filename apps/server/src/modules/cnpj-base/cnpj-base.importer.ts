/**
 * One refresh of the CNPJ base from a folder of the Receita's files: cities into memory (a few
 * thousand), companies and establishments streamed into the `_next` tables in batches, keys
 * built, then the swap. Used by `npm run cnpj:import` and by the server's import job alike.
 *
 * Starting over is always safe: the `_next` tables are created fresh, the live ones are only
 * touched by the swap's transaction, and an import row a dead process left 'running' is marked
 * failed when the next import starts.
 */
import path from 'node:path';
import type { Clock } from '../../platform/clock/clock.ts';
import type { DbHandle } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { type CnpjSourceFile, findCnpjFiles, readCnpjRows } from './cnpj-base.files.ts';
import { createCnpjNextTablesRepository } from './cnpj-base.next-tables.repository.ts';
import type { CnpjBaseRepository } from './cnpj-base.repository.ts';
import { type CompanyRecord, type EstablishmentRecord, toCity, toCompany, toEstablishment } from './cnpj-base.rows.ts';

export const BATCH_ROWS = 5_000;
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export type CnpjImportProgress = {
  file: string;
  fileRows: number;
  /** Companies and establishments loaded so far (all files). */
  rows: number;
  rowsPerSecond: number;
  seconds: number;
};

export type CnpjImportOptions = {
  folder: string;
  referenceMonth: string;
  /** The import row to run (the server creates it when the import is asked for); else one is created. */
  importId?: string;
  onProgress?: (progress: CnpjImportProgress) => void;
  progressEveryMs?: number;
  signal?: AbortSignal;
  /** Test seam: runs once everything is loaded and keyed, just before the swap. */
  beforeSwap?: () => Promise<void>;
};

export type CnpjImportResult = {
  importId: string;
  referenceMonth: string;
  establishments: number;
  companies: number;
  cities: number;
  /** Rows that could not be a CNPJ or a company (wrong column count, bad identifier). */
  skipped: number;
  seconds: number;
};

/** `--month`, else the folder's name when it is `YYYY-MM` (the Receita's folders are), else this month in Brazil. */
export function referenceMonthFor(folder: string, explicit: string | undefined, now: Date): string {
  if (explicit !== undefined) {
    if (!MONTH_PATTERN.test(explicit)) {
      throw new AppError('CNPJ_MONTH_INVALID', undefined, { month: explicit });
    }
    return explicit;
  }
  const base = path.basename(path.resolve(folder));
  if (MONTH_PATTERN.test(base)) return base;
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit' })
    .format(now)
    .slice(0, 7);
}

/** The folder's files, or CNPJ_FOLDER_INVALID when it is missing or holds no Estabelecimentos file. */
export function cnpjFilesOf(folder: string): CnpjSourceFile[] {
  let files: CnpjSourceFile[];
  try {
    files = findCnpjFiles(folder);
  } catch {
    throw new AppError('CNPJ_FOLDER_INVALID', undefined, {
      folder: folder,
      why: 'ela não existe ou não pode ser lida',
    });
  }
  if (!files.some((f) => f.kind === 'establishments')) {
    throw new AppError('CNPJ_FOLDER_INVALID', undefined, {
      folder: folder,
      why: 'não há arquivos Estabelecimentos*.zip (nem *ESTABELE extraídos)',
    });
  }
  return files;
}

export function createCnpjImporter(deps: { handle: DbHandle; repo: CnpjBaseRepository; clock: Clock }) {
  const { repo, clock } = deps;
  const next = createCnpjNextTablesRepository(deps.handle);

  async function run(options: CnpjImportOptions): Promise<CnpjImportResult> {
    const files = cnpjFilesOf(options.folder);
    const lock = await repo.tryLockImports();
    if (!lock) {
      const busy = new AppError('CNPJ_IMPORT_RUNNING');
      // The server's job brings its own import row: it ends failed, not 'running' forever.
      if (options.importId) await repo.fail(options.importId, busy.message, clock.now());
      throw busy;
    }
    const started = clock.now();
    const importId =
      options.importId ??
      (await repo.createImport({ folder: options.folder, referenceMonth: options.referenceMonth, startedAt: started }));
    try {
      await repo.failAbandoned(importId, started);
      const loaded = await load(importId, files, options);
      const counts = await next.counts();
      // An empty load would swap in an empty base: refuse (the files were empty or not the Receita's).
      if (counts.establishments === 0)
        throw new AppError('CNPJ_FOLDER_INVALID', undefined, {
          folder: options.folder,
          why: 'nenhuma linha de estabelecimento válida',
        });
      await options.beforeSwap?.();
      const importedAt = clock.now();
      await next.swap({ importId, referenceMonth: options.referenceMonth, ...counts, importedAt });
      return {
        importId,
        referenceMonth: options.referenceMonth,
        ...counts,
        cities: loaded.cities,
        skipped: loaded.skipped,
        seconds: (importedAt.getTime() - started.getTime()) / 1000,
      };
    } catch (err) {
      await repo.fail(importId, (err as Error).message, clock.now()).catch(() => {});
      // The space the half-loaded tables hold goes back now, not at the next import.
      await next.drop().catch(() => {});
      throw err;
    } finally {
      await lock.release();
    }
  }

  async function load(importId: string, files: CnpjSourceFile[], options: CnpjImportOptions) {
    await next.create();
    const cities = new Map<string, string>();
    const startedMs = Date.now();
    let rows = 0;
    let skipped = 0;
    let lastReport = 0;
    let lastSaved = startedMs;
    // One insert in flight while the next batch is parsed (PostgreSQL works while we read).
    let pending: Promise<void> = Promise.resolve();
    const submit = async (insert: () => Promise<void>) => {
      await pending;
      pending = insert();
      pending.catch(() => {}); // awaited at the next submit or the end; this only silences "unhandled"
    };

    for (const file of files) {
      let fileRows = 0;
      const report = async (force: boolean) => {
        const now = Date.now();
        if (force || now - lastReport >= (options.progressEveryMs ?? 1000)) {
          lastReport = now;
          const seconds = (now - startedMs) / 1000;
          options.onProgress?.({
            file: file.name,
            fileRows,
            rows,
            rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)),
            seconds,
          });
        }
        if (force || now - lastSaved >= 2000) {
          lastSaved = now;
          await repo.progress(importId, file.name, rows);
        }
      };
      await repo.progress(importId, file.name, rows);
      for await (const batch of readCnpjRows(file, BATCH_ROWS)) {
        if (options.signal?.aborted) throw new AppError('CNPJ_IMPORT_ABORTED');
        fileRows += batch.length;
        if (file.kind === 'cities') {
          for (const row of batch) {
            const city = toCity(row);
            if (city) cities.set(city[0], city[1]);
            else skipped++;
          }
          continue;
        }
        if (file.kind === 'companies') {
          const records: CompanyRecord[] = [];
          for (const row of batch) {
            const record = toCompany(row);
            if (record) records.push(record);
            else skipped++;
          }
          rows += records.length;
          await submit(() => next.insertCompanies(records));
        } else {
          const records: EstablishmentRecord[] = [];
          for (const row of batch) {
            const record = toEstablishment(row, cities);
            if (record) records.push(record);
            else skipped++;
          }
          rows += records.length;
          await submit(() => next.insertEstablishments(records));
        }
        await report(false);
      }
      await pending;
      await report(true);
    }
    await pending;
    await next.addPrimaryKeys();
    return { cities: cities.size, skipped };
  }

  return { run };
}

export type CnpjImporter = ReturnType<typeof createCnpjImporter>;
