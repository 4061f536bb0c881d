/**
 * Enrichments in the database: the row with its counts and credits, one item per distinct valid
 * CNPJ (written at creation, filled by the lookup), and the CNPJ base read in batches.
 */
import type { EnrichmentInvalid, EnrichmentPhone } from '@ecoa/shared';
import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { pgArray } from '../../platform/db/array-literal.ts';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { findOwnedRow, findRowById } from '../../platform/db/paging.ts';
import { rowsOf } from '../../platform/db/rows.ts';
import type { EstablishmentRecord } from '../cnpj-base/index.ts';
import { users } from '../users/index.ts';
import { type EnrichmentRow, enrichmentItems, enrichments } from './enrichment.schema.ts';

/** Items written per statement: big enough to be fast, small enough for any parameter limit. */
const BATCH = 5_000;

/** What the CNPJ base holds for one establishment (phones as E.164, classified by the caller). */
export type BaseRow = Omit<EstablishmentRecord, 'basico'> & { companyName: string | null };

export type ItemFill = {
  position: number;
  companyName: string | null;
  tradeName: string | null;
  situation: number;
  city: string | null;
  uf: string | null;
  cnae: string | null;
  phones: EnrichmentPhone[];
  email: string | null;
};

export type NewEnrichment = {
  userId: string;
  name: string;
  onlyActive: boolean;
  total: number;
  valid: number;
  invalid: number;
  duplicates: number;
  invalidItems: EnrichmentInvalid[];
  creditsReserved: number;
  baseMonth: string | null;
};

export function createEnrichmentRepository(db: Database) {
  return {
    /** The live CNPJ base's reference month (null before a first import). */
    async baseMonth(): Promise<string | null> {
      const [row] = await rowsOf<{ reference_month: string }>(
        db.execute(sql`select reference_month from cnpj_base where id = 1`),
      );
      return row?.reference_month ?? null;
    },

    async insert(row: NewEnrichment, tx: DbOrTx): Promise<string> {
      const [created] = await tx.insert(enrichments).values(row).returning({ id: enrichments.id });
      return created!.id;
    },

    /** The distinct valid CNPJs, in input order (position 0, 1, …). */
    async insertItems(enrichmentId: string, cnpjs: string[], tx: DbOrTx): Promise<void> {
      for (let start = 0; start < cnpjs.length; start += BATCH) {
        const batch = cnpjs.slice(start, start + BATCH);
        await tx.execute(sql`insert into enrichment_items (enrichment_id, position, cnpj)
          select ${enrichmentId}, start + ord - 1, cnpj
          from unnest(${pgArray(batch)}::text[]) with ordinality as t(cnpj, ord), (select ${start}::int as start) s`);
      }
    },

    find: (id: string): Promise<EnrichmentRow | undefined> => findRowById(db, enrichments, id),

    findOwned: (userId: string, id: string): Promise<EnrichmentRow | undefined> =>
      findOwnedRow(db, enrichments, userId, id),

    /** The row locked for the rest of `tx` (settling its credits happens once). */
    async lock(id: string, tx: DbOrTx): Promise<EnrichmentRow | undefined> {
      const [row] = await tx.select().from(enrichments).where(eq(enrichments.id, id)).for('update');
      return row;
    },

    async update(id: string, patch: Partial<EnrichmentRow>, tx: DbOrTx = db): Promise<void> {
      await tx.update(enrichments).set(patch).where(eq(enrichments.id, id));
    },

    /** A page of items to look up: positions ≥ `from`, in order. */
    async itemsFrom(id: string, from: number, limit: number): Promise<{ position: number; cnpj: string }[]> {
      return db
        .select({ position: enrichmentItems.position, cnpj: enrichmentItems.cnpj })
        .from(enrichmentItems)
        .where(and(eq(enrichmentItems.enrichmentId, id), gte(enrichmentItems.position, from)))
        .orderBy(enrichmentItems.position)
        .limit(limit);
    },

    /** The base's rows for these CNPJs (only active ones if asked), with the company's legal name. */
    async lookup(cnpjs: string[], onlyActive: boolean): Promise<BaseRow[]> {
      if (cnpjs.length === 0) return [];
      return rowsOf<BaseRow>(
        db.execute(sql`select e.cnpj, c.company_name as "companyName", e.trade_name as "tradeName", e.situation,
            e.cnae, e.uf, e.city, e.phones, e.email
          from cnpj_establishments e left join cnpj_companies c on c.basico = e.basico
          where e.cnpj = any(${pgArray(cnpjs)}::text[]) ${onlyActive ? sql`and e.situation = 2` : sql``}`),
      );
    },

    /** Fills the found items of one batch (one statement). */
    async fill(id: string, items: ItemFill[]): Promise<void> {
      if (items.length === 0) return;
      const col = <K extends keyof ItemFill>(k: K) => pgArray(items.map((i) => i[k] as string | number | null));
      await db.execute(sql`update enrichment_items i set found = true, company_name = f.company_name,
          trade_name = f.trade_name, situation = f.situation, city = f.city, uf = f.uf, cnae = f.cnae,
          phones = f.phones::jsonb, email = f.email
        from unnest(${col('position')}::int[], ${col('companyName')}::text[], ${col('tradeName')}::text[],
          ${col('situation')}::smallint[], ${col('city')}::text[], ${col('uf')}::text[], ${col('cnae')}::text[],
          ${pgArray(items.map((i) => JSON.stringify(i.phones)))}::text[], ${col('email')}::text[])
          as f(position, company_name, trade_name, situation, city, uf, cnae, phones, email)
        where i.enrichment_id = ${id} and i.position = f.position`);
    },

    /** found, with phone: counted from the items (so a re-run after a crash counts right). */
    async tally(id: string, tx: DbOrTx): Promise<{ found: number; withPhone: number }> {
      const [row] = await rowsOf<{ found: number | string; with_phone: number | string }>(
        tx.execute(sql`select count(*) filter (where found) as found,
            count(*) filter (where found and jsonb_array_length(phones) > 0) as with_phone
          from enrichment_items where enrichment_id = ${id}`),
      );
      return { found: Number(row?.found ?? 0), withPhone: Number(row?.with_phone ?? 0) };
    },

    async page(filter: { userId?: string; from?: Date; to?: Date }, page: number, pageSize: number) {
      const where = and(
        filter.userId ? eq(enrichments.userId, filter.userId) : undefined,
        filter.from ? gte(enrichments.createdAt, filter.from) : undefined,
        filter.to ? lt(enrichments.createdAt, filter.to) : undefined,
      );
      const [count] = await db.select({ n: sql<number>`count(*)` }).from(enrichments).where(where);
      const rows = await db
        .select({
          enrichment: enrichments,
          user: { id: users.id, name: users.fullName, email: users.email, company: users.name },
        })
        .from(enrichments)
        .innerJoin(users, eq(users.id, enrichments.userId))
        .where(where)
        .orderBy(desc(enrichments.createdAt), desc(enrichments.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { rows, total: Number(count?.n ?? 0) };
    },

    async results(id: string, filter: { found?: boolean }, page: number, pageSize: number) {
      const where = and(
        eq(enrichmentItems.enrichmentId, id),
        filter.found === undefined ? undefined : eq(enrichmentItems.found, filter.found),
      );
      const [count] = await db.select({ n: sql<number>`count(*)` }).from(enrichmentItems).where(where);
      const rows = await db
        .select()
        .from(enrichmentItems)
        .where(where)
        .orderBy(enrichmentItems.position)
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { rows, total: Number(count?.n ?? 0) };
    },

    /** Every item, in pages by position (keyset): an export never holds a whole result in memory. */
    async *allItems(id: string, pageSize = 5_000) {
      let from = 0;
      for (;;) {
        const rows = await db
          .select()
          .from(enrichmentItems)
          .where(and(eq(enrichmentItems.enrichmentId, id), gte(enrichmentItems.position, from)))
          .orderBy(enrichmentItems.position)
          .limit(pageSize);
        if (rows.length === 0) return;
        yield rows;
        from = rows[rows.length - 1]!.position + 1;
        if (rows.length < pageSize) return;
      }
    },
  };
}

export type EnrichmentRepository = ReturnType<typeof createEnrichmentRepository>;
