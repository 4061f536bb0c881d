import {
  type ColumnMapping,
  type ContactList,
  ERRORS,
  type ListContact,
  type ListPreview,
  PHONE_INVALID_REASON_PT,
  type PhoneInvalidReason,
} from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { isTransientDbError } from '../../platform/db/errors.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { csvLine } from '../../platform/http/csv.ts';
import type { UploadedFile } from '../../platform/http/upload.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import type { GiveUpReason, Jobs } from '../../platform/jobs/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import { ImportCancelled, importErrorOf, importListFile, RAGGED_ROW } from './lists.import.ts';
import { listImportQueue } from './lists.jobs.ts';
import type { ContactPageRow, ListsRepository } from './lists.repository.ts';
import type { ContactListRow } from './lists.schema.ts';
import { columnCountOf, describeColumns, detectHeader, detectMapping, validateMapping } from './parser/mapping.ts';
import { readSpreadsheetSample } from './parser/sample.ts';

export type ListsServiceDeps = {
  repo: ListsRepository;
  jobs: Pick<Jobs, 'send' | 'wake'>;
  clock: Clock;
  storage: UploadStorage;
  logger: Logger;
};

const PREVIEW_ROWS = 10;
const SAMPLE_ROWS = 50;

const REASON_PT: Record<string, string> = {
  ...PHONE_INVALID_REASON_PT,
  [RAGGED_ROW]: 'Linha com colunas a mais (separador ou aspas fora do lugar)',
};

/** A contacts page's row as the API shows it. */
function toListContact(row: ContactPageRow): ListContact {
  return {
    rowNumber: row.row_number,
    phone: row.phone,
    kind: row.kind,
    name: row.name,
    fields: row.fields,
    optedOut: row.opted_out,
  };
}

function toDto(row: ContactListRow, optedOut: number): ContactList {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    progress: row.progress,
    rowsProcessed: row.rowsProcessed,
    total: row.total,
    valid: row.valid,
    mobiles: row.mobiles,
    landlines: row.landlines,
    invalid: row.invalid,
    duplicates: row.duplicates,
    optedOut,
    ...(row.errorMessage ? { error: row.errorMessage, errorCode: row.errorCode ?? 'IMPORT_FAILED' } : {}),
    ...(row.errorDetails ? { errorDetails: row.errorDetails } : {}),
    fileName: row.fileName,
    fields: row.fieldKeys,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** Share of the data rows of a sample with non-empty cells beyond the header's columns. */
function raggedShare(sample: string[][]): number {
  const width = sample[0]!.length;
  const data = sample.slice(1);
  const ragged = data.filter((row) => row.slice(width).some((cell) => cell.trim() !== '')).length;
  return data.length === 0 ? 0 : ragged / data.length;
}

export function createListsService(deps: ListsServiceDeps) {
  const { repo, jobs, clock, storage, logger } = deps;

  async function owned(userId: string, id: string): Promise<ContactListRow> {
    const row = await repo.findOwned(userId, id);
    if (!row) throw new AppError('LIST_NOT_FOUND');
    return row;
  }

  return {
    /**
     * The mapping step: the first rows of a file (or of its beginning: the web sends the first
     * megabyte of a big CSV), its columns and the detected mapping.
     */
    async preview(file: UploadedFile, options: { sampleOnly?: boolean } = {}): Promise<ListPreview> {
      try {
        const { sheet, rows: sample } = await readSpreadsheetSample(file.path, SAMPLE_ROWS, options);
        if (sample.length === 0) throw new AppError('NO_DATA_ROWS');
        let mapping: ColumnMapping | null = null;
        try {
          mapping = detectMapping(sample);
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'NO_PHONE_COLUMN')) throw err;
        }
        const hasHeader = mapping?.hasHeader ?? detectHeader(sample);
        return {
          kind: sheet.kind,
          encoding: sheet.encoding ?? null,
          delimiter: sheet.delimiter ?? null,
          hasHeader,
          columns: describeColumns(sample, hasHeader),
          rows: (hasHeader ? sample.slice(1) : sample).slice(0, PREVIEW_ROWS),
          mapping,
        };
      } finally {
        await storage.remove(file.path);
      }
    },

    /**
     * Checks the upload (type by content, encoding, a phone column, the mapping) before
     * accepting it, so bad files are refused at once with their code; then creates the list
     * and enqueues its import.
     */
    async create(input: { userId: string; name: string; file: UploadedFile; mapping?: ColumnMapping }) {
      try {
        const { sheet, rows: sample } = await readSpreadsheetSample(input.file.path, SAMPLE_ROWS);
        if (sample.length === 0) throw new AppError('NO_DATA_ROWS');
        const mapping = input.mapping ? validateMapping(input.mapping, columnCountOf(sample)) : detectMapping(sample);
        if (mapping.hasHeader && sample.length < 2) throw new AppError('NO_DATA_ROWS');
        if (mapping.hasHeader && raggedShare(sample) > 0.5) throw new AppError('CSV_RAGGED');
        const id = await repo.create(
          {
            userId: input.userId,
            name: input.name,
            fileName: input.file.fileName,
            fileKind: sheet.kind,
            fileSize: input.file.size,
            uploadPath: input.file.path,
            mapping,
          },
          async (listId, tx) => {
            if (!(await jobs.send(listImportQueue, { listId }, { singletonKey: listId, tx }))) {
              throw new Error('the import job was not queued');
            }
          },
        );
        jobs.wake(listImportQueue);
        return { id };
      } catch (err) {
        await storage.remove(input.file.path);
        throw err;
      }
    },

    /**
     * The import job: idempotent (a retried job starts the same import over, cleanly). A
     * transient database error is thrown so the job retries it, keeping the uploaded file for
     * that retry; anything else settles the list (ready, failed or cancelled) and removes the file.
     */
    async runImport(listId: string, job: { signal?: AbortSignal; lastAttempt?: boolean } = {}): Promise<void> {
      const list = await repo.findById(listId);
      if (list?.status !== 'importing') return;
      try {
        const result = await importListFile({ repo, clock, signal: job.signal }, list);
        logger.info(
          {
            listId,
            total: result.total,
            valid: result.valid,
            timingsMs: Object.fromEntries(Object.entries(result.timings).map(([k, v]) => [k, Math.round(v)])),
          },
          'list imported',
        );
      } catch (err) {
        if (err instanceof ImportCancelled) {
          await repo.clearImported(listId);
          logger.info({ listId }, 'list import cancelled');
        } else if (isTransientDbError(err) && !job.lastAttempt) {
          logger.warn({ err, listId }, 'list import hit a transient database error: the job retries it');
          throw err;
        } else {
          const error = importErrorOf(err);
          if (error.code === 'IMPORT_FAILED') logger.error({ err, listId }, 'list import failed');
          await repo.markFailed(listId, error, clock.now());
        }
      }
      await storage.remove(list.uploadPath);
    },

    /**
     * The import job ended for good without settling its list (its process died twice on this
     * file and it was quarantined, or its retries ran out): the list fails with the reason.
     */
    async giveUpImport(listId: string, reason: GiveUpReason): Promise<void> {
      const list = await repo.findById(listId);
      if (list?.status !== 'importing') return;
      const error =
        reason.code === 'JOB_QUARANTINED'
          ? { code: 'IMPORT_CRASHED', message: ERRORS.IMPORT_CRASHED.message }
          : importErrorOf(null);
      logger.error({ listId, reason }, 'list import given up');
      await repo.markFailed(listId, error, clock.now());
      await storage.remove(list.uploadPath);
    },

    async get(userId: string, id: string): Promise<ContactList> {
      const row = await owned(userId, id);
      const opted = row.status === 'ready' ? await repo.optedOutCounts(userId, [id]) : new Map<string, number>();
      return toDto(row, opted.get(id) ?? 0);
    },

    async list(userId: string, page: number, pageSize: number, q = '') {
      const { rows, total } = await repo.page(userId, page, pageSize, q);
      const opted = await repo.optedOutCounts(
        userId,
        rows.filter((r) => r.status === 'ready').map((r) => r.id),
      );
      return { items: rows.map((r) => toDto(r, opted.get(r.id) ?? 0)), page, pageSize, total };
    },

    async rename(userId: string, id: string, name: string): Promise<ContactList> {
      const trimmed = name.trim();
      if (!trimmed) throw new AppError('LIST_NAME_REQUIRED');
      if (!(await repo.rename(userId, id, trimmed, clock.now()))) throw new AppError('LIST_NOT_FOUND');
      return this.get(userId, id);
    },

    /** Deletes a list (cancelling its import if it is still running). */
    async remove(userId: string, id: string): Promise<void> {
      const row = await repo.delete(userId, id);
      if (!row) throw new AppError('LIST_NOT_FOUND');
      if (row.status === 'importing') {
        // The running job notices on its next progress write, rolls back and removes the file.
        await storage.remove(row.uploadPath).catch(() => {});
      }
    },

    async contacts(userId: string, id: string, page: number, pageSize: number) {
      const row = await owned(userId, id);
      const items =
        row.status === 'ready' ? (await repo.contactsPage(id, userId, page, pageSize)).map(toListContact) : [];
      return { items, page, pageSize, total: row.status === 'ready' ? row.valid : 0 };
    },

    /** The valid contacts or the invalid rows as CSV (`;`, UTF-8 with BOM: what Excel in Brazil opens). */
    async export(userId: string, id: string, kind: 'valid' | 'invalid') {
      const row = await owned(userId, id);
      if (row.status !== 'ready') throw new AppError('LIST_NOT_READY');
      const fileName = `${row.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'lista'}-${kind === 'valid' ? 'validos' : 'invalidos'}.csv`;
      async function* lines(): AsyncGenerator<string> {
        yield '\ufeff';
        if (kind === 'valid') {
          yield csvLine(['telefone', 'tipo', 'nome', ...row.fieldKeys]);
          for await (const batch of repo.iterateContacts(id)) {
            let chunk = '';
            for (const c of batch) {
              chunk += csvLine([
                c.phone.replace(/^\+/, ''),
                c.kind === 'mobile' ? 'celular' : 'fixo',
                c.name,
                ...row.fieldKeys.map((k) => c.fields?.[k] ?? ''),
              ]);
            }
            yield chunk;
          }
          return;
        }
        const headers = row.sourceHeaders ?? [];
        let headerWritten = false;
        for await (const batch of repo.iterateInvalid(id)) {
          if (!headerWritten) {
            const width = Math.max(headers.length, ...batch.map((r) => r.cells.length));
            const cols = Array.from({ length: width }, (_, i) => headers[i] || `coluna_${i + 1}`);
            yield csvLine(['linha', 'motivo', ...cols]);
            headerWritten = true;
          }
          let chunk = '';
          for (const r of batch) {
            chunk += csvLine([String(r.rowNumber), REASON_PT[r.reason as PhoneInvalidReason] ?? r.reason, ...r.cells]);
          }
          yield chunk;
        }
        if (!headerWritten) yield csvLine(['linha', 'motivo', ...headers]);
      }
      return { fileName, lines: lines() };
    },
  };
}

export type ListsService = ReturnType<typeof createListsService>;
