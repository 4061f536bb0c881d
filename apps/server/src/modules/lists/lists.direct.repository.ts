/**
 * Lists made by Ecoa itself rather than imported from a file (an enrichment's result): the list
 * and its contacts written in one transaction, ready at once. SQL only.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { contactLists } from './lists.schema.ts';

export type DirectContact = {
  /** E.164. */
  phone: string;
  kind: 'mobile' | 'landline';
  name: string | null;
  fields: Record<string, string>;
};

const BATCH = 5_000;

export type DirectList = {
  userId: string;
  name: string;
  fileName: string;
  fieldKeys: string[];
  contacts: DirectContact[];
  now: Date;
};

export function createDirectListsRepository(db: Database) {
  return {
    /**
     * Creates a ready list of `contacts` (one per phone: a repeated phone counts as a duplicate,
     * the first one kept). `fieldKeys` are the campaign variables the contacts' fields offer.
     */
    createFromContacts: (input: DirectList, tx: DbOrTx = db) => createFromContacts(input, tx),
  };
}

async function createFromContacts(input: DirectList, outer: DbOrTx): Promise<string> {
  const seen = new Set<string>();
  const unique = input.contacts.filter((c) => !seen.has(c.phone) && seen.add(c.phone));
  const mobiles = unique.filter((c) => c.kind === 'mobile').length;
  return outer.transaction(async (tx) => {
    const [list] = await tx
      .insert(contactLists)
      .values({
        userId: input.userId,
        name: input.name,
        status: 'ready',
        progress: 100,
        rowsProcessed: input.contacts.length,
        total: input.contacts.length,
        valid: unique.length,
        mobiles,
        landlines: unique.length - mobiles,
        invalid: 0,
        duplicates: input.contacts.length - unique.length,
        fileName: input.fileName,
        fileKind: 'csv',
        fileSize: 0,
        fieldKeys: input.fieldKeys,
        finishedAt: input.now,
      })
      .returning({ id: contactLists.id });
    const listId = list!.id;
    for (let start = 0; start < unique.length; start += BATCH) {
      const batch = unique.slice(start, start + BATCH);
      await tx.execute(sql`insert into contacts (list_id, row_number, phone, kind, name, fields)
        select ${listId}, ${start}::int + ord, phone, kind, name, fields::jsonb
        from unnest(${pgArray(batch.map((c) => c.phone))}::text[], ${pgArray(batch.map((c) => c.kind))}::text[],
          ${pgArray(batch.map((c) => c.name))}::text[], ${pgArray(batch.map((c) => JSON.stringify(c.fields)))}::text[])
          with ordinality as t(phone, kind, name, fields, ord)`);
    }
    return listId;
  });
}
