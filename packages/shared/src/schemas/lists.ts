import { z } from 'zod';
import type { PhoneKind } from '../phones/normalize.ts';

/** The most a list (or opt-out) upload may weigh: 100 MB. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * The reading limits a spreadsheet can pass (XLSX_TOO_LARGE, IMPORT_TOO_LARGE: ADR 004). The
 * error's `details` are `{limit, max}`, `max` in the limit's unit (bytes for `…Bytes`), so the
 * web can say which limit in the user's language.
 */
export const FILE_LIMITS = [
  'entries',
  'partBytes',
  'sheetBytes',
  'totalBytes',
  'centralDirectoryBytes',
  'ratio',
  'sharedStrings',
  'sharedStringBytes',
  'styles',
  'columns',
  'cellChars',
  'rowChars',
  'xmlToken',
  'heapMb',
  'seconds',
] as const;
export type FileLimit = (typeof FILE_LIMITS)[number];
export const fileLimitDetailsSchema = z.object({ limit: z.enum(FILE_LIMITS), max: z.number() });
export type FileLimitDetails = z.infer<typeof fileLimitDetailsSchema>;

/** A list's import moves importing → ready | failed. */
export const LIST_STATUSES = ['importing', 'ready', 'failed'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/** `GET /api/v1/lists/:id` (and each item of `GET /api/v1/lists`): status, import progress, counts. */
export const contactListSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(LIST_STATUSES),
  progress: z.number(),
  rowsProcessed: z.number(),
  total: z.number(),
  valid: z.number(),
  mobiles: z.number(),
  landlines: z.number(),
  invalid: z.number(),
  duplicates: z.number(),
  optedOut: z.number(),
  error: z.string().optional(),
  errorCode: z.string().optional(),
  /** For a limit passed (XLSX_TOO_LARGE, IMPORT_TOO_LARGE): which one and its maximum. */
  errorDetails: fileLimitDetailsSchema.optional(),
  fileName: z.string(),
  fields: z.array(z.string()),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ContactList = z.infer<typeof contactListSchema>;

/** Which column holds what (the `mapping` JSON of `POST /api/v1/lists`). Column indexes are 0-based. */
export const columnMappingSchema = z.object({
  hasHeader: z.boolean(),
  phone: z.number().int().min(0),
  name: z.number().int().min(0).nullable(),
  /** The other columns kept as custom fields (campaign variables `{key}`). */
  fields: z.array(z.object({ column: z.number().int().min(0), key: z.string() })).max(200),
});
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

/** One column of `POST /api/v1/lists/preview`. */
export type PreviewColumn = {
  index: number;
  header: string | null;
  /** The variable name this column gets when kept as a custom field. */
  key: string;
  /** Share (0..1) of sample cells that are valid Brazilian phones. */
  phoneShare: number;
  samples: string[];
};

/** `POST /api/v1/lists/preview`: the mapping step. */
export type ListPreview = {
  kind: 'csv' | 'xlsx';
  encoding: string | null;
  delimiter: string | null;
  hasHeader: boolean;
  columns: PreviewColumn[];
  /** The first data rows (header excluded). */
  rows: string[][];
  /** The detected mapping; null when no column looks like phones (the user must choose). */
  mapping: ColumnMapping | null;
};

/** One item of `GET /api/v1/lists/:id/contacts`. */
export type ListContact = {
  rowNumber: number;
  phone: string;
  kind: PhoneKind;
  name: string | null;
  fields: Record<string, string> | null;
  optedOut: boolean;
};
