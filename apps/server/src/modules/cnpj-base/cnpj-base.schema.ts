/**
 * The Receita Federal's open CNPJ data, as enrichment needs it. A refresh loads into
 * `<table>_next` copies and swaps them in with one transaction (`cnpj-base.next-tables.repository.ts`), so
 * readers always see a whole base. `cnpj_base` is the one row describing the live base;
 * `cnpj_base_imports` the history and progress of imports.
 */
import { integer, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { randomId, timestamptz } from '../../platform/db/columns.ts';

/** Empresas: one row per CNPJ básico (the first 8 characters), the legal name. */
export const cnpjCompanies = pgTable('cnpj_companies', {
  basico: text('basico').primaryKey(),
  companyName: text('company_name').notNull(),
});

/** Estabelecimentos: one row per CNPJ (14 characters), with what enrichment returns. */
export const cnpjEstablishments = pgTable('cnpj_establishments', {
  cnpj: text('cnpj').primaryKey(),
  basico: text('basico').notNull(),
  tradeName: text('trade_name'),
  /** Situação cadastral: 1 nula, 2 ativa, 3 suspensa, 4 inapta, 8 baixada. */
  situation: smallint('situation').notNull(),
  /** CNAE principal, 7 digits. */
  cnae: text('cnae'),
  uf: text('uf'),
  city: text('city'),
  /** E.164, valid numbers only (mobile or landline is decided by the shared phone code). */
  phones: text('phones').array().notNull(),
  email: text('email'),
});

/** The live base: one row (id 1) once a first import swapped in. */
export const cnpjBase = pgTable('cnpj_base', {
  id: smallint('id').primaryKey(),
  /** `YYYY-MM`: the Receita's publication the base comes from. */
  referenceMonth: text('reference_month').notNull(),
  establishments: integer('establishments').notNull(),
  companies: integer('companies').notNull(),
  importedAt: timestamptz('imported_at').notNull(),
});

export const CNPJ_IMPORT_STATUSES = ['running', 'done', 'failed'] as const;

/** Each import: where from, how far (rows, file), how it ended. */
export const cnpjBaseImports = pgTable('cnpj_base_imports', {
  id: randomId(),
  folder: text('folder').notNull(),
  referenceMonth: text('reference_month').notNull(),
  status: text('status', { enum: CNPJ_IMPORT_STATUSES }).notNull().default('running'),
  /** The file being read now, and rows loaded so far (all files). */
  file: text('file'),
  rows: integer('rows').notNull().default(0),
  error: text('error'),
  startedAt: timestamptz('started_at').notNull().defaultNow(),
  finishedAt: timestamptz('finished_at'),
});
