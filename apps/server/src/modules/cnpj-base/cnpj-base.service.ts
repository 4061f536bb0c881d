/**
 * The CNPJ base's rules for administrators: what the live base is, and asking for a refresh from
 * a folder on the server (run by the import job, one at a time, with the same importer as
 * `npm run cnpj:import`).
 */
import type { CnpjBaseInfo } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { isoOrNull } from '../../platform/db/rows.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { GiveUpReason, JobContext, Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import { type CnpjImporter, cnpjFilesOf, referenceMonthFor } from './cnpj-base.importer.ts';
import { type CnpjImportJob, cnpjImportQueue } from './cnpj-base.jobs.ts';
import type { CnpjBaseRepository, CnpjImportRow } from './cnpj-base.repository.ts';

function toImportInfo(row: CnpjImportRow): NonNullable<CnpjBaseInfo['lastImport']> {
  return {
    id: row.id,
    folder: row.folder,
    referenceMonth: row.referenceMonth,
    status: row.status,
    file: row.file,
    rows: row.rows,
    error: row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: isoOrNull(row.finishedAt),
  };
}

export function createCnpjBaseService(deps: {
  repo: CnpjBaseRepository;
  importer: CnpjImporter;
  jobs: Jobs;
  clock: Clock;
  logger: Logger;
}) {
  const { repo, importer, jobs, clock, logger } = deps;

  return {
    async info(): Promise<CnpjBaseInfo> {
      // The import first, then the base: an import read as done had its swap (one transaction
      // with the base row) committed before, so the base read after it shows that swap. Read side
      // by side, the base could be read just before the commit and the import just after.
      const last = await repo.lastImport();
      const base = await repo.base();
      return {
        referenceMonth: base?.referenceMonth ?? null,
        establishments: base?.establishments ?? 0,
        companies: base?.companies ?? 0,
        importedAt: isoOrNull(base?.importedAt ?? null),
        lastImport: last ? toImportInfo(last) : null,
      };
    },

    /** Checks the folder now (a clear 400 beats a failed job), records the import, queues it. */
    async requestImport(input: { folder: string; referenceMonth?: string }): Promise<{ id: string }> {
      cnpjFilesOf(input.folder);
      const referenceMonth = referenceMonthFor(input.folder, input.referenceMonth, clock.now());
      if (await repo.importPending(cnpjImportQueue.name)) {
        throw new AppError('CNPJ_IMPORT_RUNNING');
      }
      const id = await repo.createImport({ folder: input.folder, referenceMonth, startedAt: clock.now() });
      try {
        await jobs.send(cnpjImportQueue, { importId: id, folder: input.folder, referenceMonth });
      } catch (err) {
        await repo.fail(id, 'could not queue the import', clock.now());
        throw err;
      }
      return { id };
    },

    /** The job: the import's outcome is in its row (done, or failed with the reason), so nothing is rethrown. */
    async runImport(data: CnpjImportJob, job: Pick<JobContext, 'signal'>): Promise<void> {
      const row = await repo.findImport(data.importId);
      if (row?.status !== 'running') return;
      const log = logger.child({ cnpjImport: data.importId });
      try {
        const result = await importer.run({
          ...data,
          signal: job.signal,
          progressEveryMs: 10_000,
          onProgress: (p) => log.info(p, 'CNPJ base import progress'),
        });
        log.info(result, 'CNPJ base imported');
      } catch (err) {
        log.error({ err }, 'CNPJ base import failed');
      }
    },

    async giveUpImport(data: CnpjImportJob, reason: GiveUpReason): Promise<void> {
      await repo.fail(data.importId, reason.message, clock.now());
    },
  };
}

export type CnpjBaseService = ReturnType<typeof createCnpjBaseService>;
