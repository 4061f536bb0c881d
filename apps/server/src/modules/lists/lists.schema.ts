import { type ColumnMapping, type FileLimitDetails, LIST_STATUSES } from '@ecoa/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamps, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/**
 * A contact list and its import. The import's progress and counts live here, so a reload of
 * the page (or another browser) sees them; `status` moves importing → ready | failed.
 */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', { enum: LIST_STATUSES }).notNull().default('importing'),
    /** 0..100, from the bytes of the file read so far. */
    progress: smallint('progress').notNull().default(0),
    rowsProcessed: integer('rows_processed').notNull().default(0),
    /** Data rows in the file (header and blank lines excluded) = valid + invalid + duplicates. */
    total: integer('total').notNull().default(0),
    valid: integer('valid').notNull().default(0),
    mobiles: integer('mobiles').notNull().default(0),
    landlines: integer('landlines').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** `{limit, max}` when a reading limit was passed (FileLimitDetails). */
    errorDetails: jsonb('error_details').$type<FileLimitDetails>(),
    fileName: text('file_name').notNull(),
    fileKind: text('file_kind', { enum: ['csv', 'xlsx'] }).notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** The uploaded file while the import runs; removed (null) when it ends. */
    uploadPath: text('upload_path'),
    /** The mapping the user chose; null = detect on import. */
    mapping: jsonb('mapping').$type<ColumnMapping>(),
    /** The header row of the file (for the invalid-rows export), when it has one. */
    sourceHeaders: jsonb('source_headers').$type<string[]>(),
    /** Keys of the custom fields, usable as campaign variables `{key}`. */
    fieldKeys: text('field_keys').array().notNull().default(sql`'{}'::text[]`),
    ...timestamps(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [index('contact_lists_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * The valid, deduplicated contacts of a list. Loaded in bulk (COPY), so it carries one index
 * only, the unique (list, phone) that also serves paging, exports and opt-out checks, and no
 * foreign key: the lists repository deletes a list's contacts with it, in one transaction.
 */
export const contacts = pgTable(
  'contacts',
  {
    listId: uuid('list_id').notNull(),
    /** The row of the spreadsheet the contact came from (1 = the first row of the file). */
    rowNumber: integer('row_number').notNull(),
    /** E.164, `+5511912345678`. */
    phone: text('phone').notNull(),
    kind: text('kind', { enum: ['mobile', 'landline'] }).notNull(),
    name: text('name'),
    /** Custom fields by key (`{"empresa": "ACME"}`), the campaign variables. */
    fields: jsonb('fields').$type<Record<string, string>>(),
  },
  (t) => [uniqueIndex('contacts_list_phone_key').on(t.listId, t.phone)],
);

/** Rows set aside by an import, with the reason and the original cells (exported on demand). */
export const listInvalidRows = pgTable(
  'list_invalid_rows',
  {
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    /** A phone reason code (EMPTY, INVALID_DDD…) or RAGGED_ROW. */
    reason: text('reason').notNull(),
    cells: jsonb('cells').$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.rowNumber] })],
);

export type ContactListRow = typeof contactLists.$inferSelect;
