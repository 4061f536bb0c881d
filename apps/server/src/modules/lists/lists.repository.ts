import { once } from 'node:events';
import type { ColumnMapping, ContactList, FileLimitDetails, ListContact, ListStatus, PhoneKind } from '@ecoa/shared';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import { from as copyFrom } from 'pg-copy-streams';
import type { DbHandle, Tx } from '../../platform/db/client.ts';
import { containsPattern } from '../../platform/db/like.ts';
import { findOwnedRow, findRowById, keysetBatches, newestFirstPage } from '../../platform/db/paging.ts';
import { type ContactListRow, contactLists, contacts, listInvalidRows } from './lists.schema.ts';

/** What an import counts (the list's counts in the API). */
export type ImportCounts = Pick<ContactList, 'total' | 'valid' | 'mobiles' | 'landlines' | 'invalid' | 'duplicates'>;

export type NewList = {
  userId: string;
  name: string;
  fileName: string;
  fileKind: 'csv' | 'xlsx';
  fileSize: number;
  uploadPath: string;
  mapping: ColumnMapping | null;
};

/** A stored contact: the API's list contact without the opt-out mark. */
export type ContactRow = Omit<ListContact, 'optedOut'>;

/** A row of a list's contacts page, as read (the service makes it the API's `ListContact`). */
export type ContactPageRow = {
  row_number: number;
  phone: string;
  kind: PhoneKind;
  name: string | null;
  fields: Record<string, string> | null;
  opted_out: boolean;
};

export type InvalidRow = { rowNumber: number; reason: string; cells: string[] };
/** An invalid row on its way in: the cells already as JSON text (a fresh string, not slices of the file). */
/** Why an import failed, as stored on the list: the code, Portuguese message and (for a limit passed) `{limit, max}`. */
export type ImportError = { code: string; message: string; details?: FileLimitDetails };

export type InvalidInsert = { rowNumber: number; reason: string; cellsJson: string };

/**
 * Streams contacts into the database as COPY text lines
 * (`list_id \t row_number \t phone \t kind \t name \t fields`, see import-worker.ts).
 * PostgreSQL: one `COPY … FROM STDIN` for the whole import (pg-copy-streams), which is one
 * statement and so all-or-nothing. PGlite: one `COPY … FROM '/dev/blob'` per batch (COPY FROM
 * STDIN through query() hangs there); the caller deletes the list's contacts if the import fails.
 */
export interface ContactWriter {
  /** COPY text lines, UTF-8. */
  write(lines: Uint8Array): Promise<void>;
  /** Flushes and commits what was written. */
  finish(): Promise<void>;
  /** Abandons the load (PostgreSQL: nothing of it is kept). */
  abort(): Promise<void>;
}

const COPY_COLUMNS = 'contacts (list_id, row_number, phone, kind, name, fields)';

export function createListsRepository(handle: DbHandle) {
  const db = handle.db;
  // The lists page, opened at every visit to /listas: prepared once (see platform/db/prepared.ts).
  const listsPage = db
    .select()
    .from(contactLists)
    .where(eq(contactLists.userId, sql.placeholder('userId')))
    .orderBy(desc(contactLists.createdAt), desc(contactLists.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('lists_page');
  const listsCount = db
    .select({ n: count() })
    .from(contactLists)
    .where(eq(contactLists.userId, sql.placeholder('userId')))
    .prepare('lists_count');

  async function contactWriter(_listId: string): Promise<ContactWriter> {
    if (handle.kind === 'postgres') {
      const client = await handle.pool!.connect();
      const stream = client.query(copyFrom(`COPY ${COPY_COLUMNS} FROM STDIN`));
      let failed: Error | undefined;
      let fail!: (err: Error) => void;
      const done = new Promise<void>((resolve, reject) => {
        fail = (err) => {
          failed ??= err;
          reject(err);
        };
        stream.on('finish', resolve);
        stream.on('error', fail);
      });
      // A checked-out client whose connection dies emits 'error': unheard, that event ends the
      // process. Here it fails the COPY, and the import job retries.
      const onConnectionError = (err: Error) => fail(err);
      client.on('error', onConnectionError);
      done.catch(() => {});
      let released = false;
      const release = (err?: Error) => {
        if (released) return;
        released = true;
        client.off('error', onConnectionError);
        client.release(err);
      };
      return {
        async write(lines) {
          if (failed) throw failed;
          if (!stream.write(Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength))) {
            await Promise.race([once(stream, 'drain'), done]);
          }
        },
        async finish() {
          stream.end();
          try {
            await done;
          } finally {
            release(failed);
          }
        },
        async abort() {
          if (released) return;
          // Destroying the stream sends CopyFail: the server rolls the whole COPY back.
          stream.destroy(new Error('import aborted'));
          await done.catch(() => {});
          release(new Error('copy aborted'));
        },
      };
    }
    // PGlite: each of the import's batches (5,000 rows, ~0.5 MB) is one COPY, read by PGlite
    // from the very bytes the worker sent (see bytesAsBlob); smaller ones are gathered first.
    const pglite = handle.pglite!;
    let buffered: Uint8Array[] = [];
    let size = 0;
    const flush = async () => {
      if (size === 0) return;
      const bytes = buffered.length === 1 ? buffered[0]! : Buffer.concat(buffered, size);
      buffered = [];
      size = 0;
      await pglite.query(`COPY ${COPY_COLUMNS} FROM '/dev/blob'`, [], { blob: bytesAsBlob(bytes) });
    };
    return {
      async write(lines) {
        buffered.push(lines);
        size += lines.byteLength;
        if (size >= 512 * 1024) await flush();
      },
      finish: flush,
      async abort() {
        buffered = [];
        size = 0;
      },
    };
  }

  return {
    contactWriter,

    /**
     * Creates an importing list and, in the same transaction, whatever must exist with it (its
     * import job): both or neither, so no list waits for a job that was never queued.
     */
    async create(list: NewList, withList: (id: string, tx: Tx) => Promise<unknown>): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(contactLists)
          .values({ ...list, status: 'importing' })
          .returning({ id: contactLists.id });
        await withList(row!.id, tx);
        return row!.id;
      });
    },

    findById: (id: string): Promise<ContactListRow | undefined> => findRowById(db, contactLists, id),

    findOwned: (userId: string, id: string): Promise<ContactListRow | undefined> =>
      findOwnedRow(db, contactLists, userId, id),

    /** Newest first; `q` keeps the lists whose name contains it (the pickers' search). */
    async page(
      userId: string,
      page: number,
      pageSize: number,
      q = '',
    ): Promise<{ rows: ContactListRow[]; total: number }> {
      if (q) {
        const where = and(eq(contactLists.userId, userId), ilike(contactLists.name, containsPattern(q)));
        return newestFirstPage(db, contactLists, where, { page, pageSize });
      }
      const rows = await listsPage.execute({ userId, limit: pageSize, offset: (page - 1) * pageSize });
      const [total] = await listsCount.execute({ userId });
      return { rows, total: total?.n ?? 0 };
    },

    /** Stores progress; false when the list is gone or no longer importing (cancelled). */
    async saveProgress(id: string, progress: number, rowsProcessed: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(contactLists)
        .set({ progress, rowsProcessed, updatedAt: now })
        .where(and(eq(contactLists.id, id), eq(contactLists.status, 'importing')))
        .returning({ id: contactLists.id });
      return rows.length > 0;
    },

    async saveDetected(id: string, mapping: ColumnMapping, sourceHeaders: string[] | null): Promise<void> {
      await db
        .update(contactLists)
        .set({ mapping, sourceHeaders, fieldKeys: mapping.fields.map((f) => f.key) })
        .where(eq(contactLists.id, id));
    },

    /** importing → ready with the counts; false if the list was deleted meanwhile. */
    async markReady(id: string, counts: ImportCounts, now: Date): Promise<boolean> {
      const rows = await db
        .update(contactLists)
        .set({
          ...counts,
          status: 'ready' satisfies ListStatus,
          progress: 100,
          rowsProcessed: counts.total,
          uploadPath: null,
          updatedAt: now,
          finishedAt: now,
        })
        .where(and(eq(contactLists.id, id), eq(contactLists.status, 'importing')))
        .returning({ id: contactLists.id });
      return rows.length > 0;
    },

    /** importing → failed, removing whatever the import had written, in one transaction. */
    async markFailed(id: string, error: ImportError, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(contacts).where(eq(contacts.listId, id));
        await tx.delete(listInvalidRows).where(eq(listInvalidRows.listId, id));
        await tx
          .update(contactLists)
          .set({
            status: 'failed' satisfies ListStatus,
            errorCode: error.code,
            errorMessage: error.message,
            errorDetails: error.details ?? null,
            total: 0,
            valid: 0,
            mobiles: 0,
            landlines: 0,
            invalid: 0,
            duplicates: 0,
            uploadPath: null,
            updatedAt: now,
            finishedAt: now,
          })
          .where(and(eq(contactLists.id, id), eq(contactLists.status, 'importing')));
      });
    },

    /** Removes what an earlier, interrupted run of the same import wrote. */
    async clearImported(id: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(contacts).where(eq(contacts.listId, id));
        await tx.delete(listInvalidRows).where(eq(listInvalidRows.listId, id));
      });
    },

    async insertInvalid(listId: string, rows: InvalidInsert[]): Promise<void> {
      if (rows.length === 0) return;
      await handle.executeSql(
        `insert into list_invalid_rows (list_id, row_number, reason, cells)
         select $1::uuid, r, reason, cells::jsonb from unnest($2::int[], $3::text[], $4::text[]) as t(r, reason, cells)`,
        [listId, rows.map((r) => r.rowNumber), rows.map((r) => r.reason), rows.map((r) => r.cellsJson)],
      );
    },

    async rename(userId: string, id: string, name: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(contactLists)
        .set({ name, updatedAt: now })
        .where(and(eq(contactLists.id, id), eq(contactLists.userId, userId)))
        .returning({ id: contactLists.id });
      return rows.length > 0;
    },

    /** Deletes the list, its contacts and its set-aside rows in one transaction. */
    async delete(userId: string, id: string): Promise<ContactListRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .delete(contactLists)
          .where(and(eq(contactLists.id, id), eq(contactLists.userId, userId)))
          .returning();
        if (!row) return undefined;
        await tx.delete(contacts).where(eq(contacts.listId, id));
        return row;
      });
    },

    async contactsPage(listId: string, userId: string, page: number, pageSize: number): Promise<ContactPageRow[]> {
      const { rows } = await handle.executeSql(
        `select c.row_number, c.phone, c.kind, c.name, c.fields,
                exists (select 1 from opt_outs o where o.user_id = $2 and o.phone = c.phone) as opted_out
           from contacts c where c.list_id = $1
          order by c.phone limit $3 offset $4`,
        [listId, userId, pageSize, (page - 1) * pageSize],
      );
      return rows as ContactPageRow[];
    },

    /** Contacts in phone order, in batches (keyset paging on the unique index). */
    iterateContacts(listId: string, batchSize = 5000): AsyncGenerator<ContactRow[]> {
      return keysetBatches(
        '',
        batchSize,
        async (after, limit) =>
          (
            await handle.executeSql(
              `select row_number as "rowNumber", phone, kind, name, fields from contacts
                where list_id = $1 and phone > $2 order by phone limit $3`,
              [listId, after, limit],
            )
          ).rows,
        (row: ContactRow) => row.phone,
      );
    },

    iterateInvalid(listId: string, batchSize = 5000): AsyncGenerator<InvalidRow[]> {
      return keysetBatches(
        0,
        batchSize,
        async (after, limit) =>
          (
            await handle.executeSql(
              `select row_number as "rowNumber", reason, cells from list_invalid_rows
                where list_id = $1 and row_number > $2 order by row_number limit $3`,
              [listId, after, limit],
            )
          ).rows,
        (row: InvalidRow) => row.rowNumber,
      );
    },

    /** How many contacts of each list are on the account's opt-out list (driven by the opt-outs). */
    async optedOutCounts(userId: string, listIds: string[]): Promise<Map<string, number>> {
      const result = new Map<string, number>();
      if (listIds.length === 0) return result;
      const { rows } = await handle.executeSql(
        `select c.list_id as "listId", count(*)::int as n
           from opt_outs o join contacts c on c.phone = o.phone and c.list_id = any($2::uuid[])
          where o.user_id = $1 group by c.list_id`,
        [userId, listIds],
      );
      for (const r of rows as { listId: string; n: number }[]) result.set(r.listId, r.n);
      return result;
    },
  };
}

export type ListsRepository = ReturnType<typeof createListsRepository>;

/**
 * What PGlite's COPY FROM '/dev/blob' reads: it only ever asks a Blob for `arrayBuffer()`, and
 * reads that whole buffer. A real Blob would copy the batch twice more (into the Blob, then out
 * of it), and on a 1M-row import those short-lived copies were ~200 MB of garbage that the
 * server's memory peak carried until a collection came.
 */
function bytesAsBlob(bytes: Uint8Array): Blob {
  const whole =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.slice().buffer as ArrayBuffer);
  return { arrayBuffer: async () => whole } as unknown as Blob;
}
