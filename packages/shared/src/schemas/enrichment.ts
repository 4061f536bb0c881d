/**
 * Enrichment (`/listas-enriquecidas`): CNPJs looked up in the Receita Federal's open CNPJ data,
 * and the CNPJ base's administration. Request and answer shapes of `/api/v1/enrichments`,
 * `/api/v1/admin/enrichments` and `/api/v1/admin/cnpj-base`.
 */
import { z } from 'zod';
import { pageSchema, paginationQuery } from './page.ts';

export const ENRICHMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type EnrichmentStatus = (typeof ENRICHMENT_STATUSES)[number];
/** The most CNPJs one enrichment takes (a spreadsheet's worth). */
export const MAX_ENRICHMENT_CNPJS = 200_000;
/** Invalid inputs kept to show (the count is always exact). */
export const MAX_INVALID_SHOWN = 1_000;

/** Situação cadastral codes of the Receita. */
export const CNPJ_SITUATIONS = { 1: 'nula', 2: 'ativa', 3: 'suspensa', 4: 'inapta', 8: 'baixada' } as const;
export type CnpjSituationCode = keyof typeof CNPJ_SITUATIONS;
export const CNPJ_ACTIVE = 2;

export const enrichmentPhoneSchema = z.object({ e164: z.string(), kind: z.enum(['mobile', 'landline']) });
export type EnrichmentPhone = z.infer<typeof enrichmentPhoneSchema>;
export const enrichmentInvalidSchema = z.object({
  value: z.string(),
  reason: z.enum(['FORMAT', 'CHECK_DIGITS']),
});
export type EnrichmentInvalid = z.infer<typeof enrichmentInvalidSchema>;

/** `POST /api/v1/enrichments` as JSON (a file goes as multipart `file` + `name` + `onlyActive`). */
export const createEnrichmentSchema = z.object({
  name: z.string().trim().min(1, 'Dê um nome ao enriquecimento.').max(120),
  cnpjs: z.array(z.string().max(40)).min(1, 'Informe pelo menos um CNPJ.').max(MAX_ENRICHMENT_CNPJS),
  onlyActive: z.boolean().optional(),
});
export type CreateEnrichmentRequest = z.infer<typeof createEnrichmentSchema>;

export const enrichmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(ENRICHMENT_STATUSES),
  onlyActive: z.boolean(),
  progress: z.number(),
  total: z.number(),
  valid: z.number(),
  invalid: z.number(),
  duplicates: z.number(),
  found: z.number(),
  withPhone: z.number(),
  notFound: z.number(),
  credits: z.object({ reserved: z.number(), used: z.number(), released: z.number() }),
  baseMonth: z.string().nullable(),
  invalidItems: z.array(enrichmentInvalidSchema),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Enrichment = z.infer<typeof enrichmentSchema>;

export const enrichmentListSchema = pageSchema(enrichmentSchema);
export type EnrichmentList = z.infer<typeof enrichmentListSchema>;

export const enrichmentResultSchema = z.object({
  cnpj: z.string(),
  found: z.boolean(),
  companyName: z.string().nullable(),
  tradeName: z.string().nullable(),
  /** `ativa`, `baixada`… (null when not found). */
  situation: z.string().nullable(),
  city: z.string().nullable(),
  uf: z.string().nullable(),
  cnae: z.string().nullable(),
  phones: z.array(enrichmentPhoneSchema),
  email: z.string().nullable(),
});
export type EnrichmentResult = z.infer<typeof enrichmentResultSchema>;
export const enrichmentResultsQuerySchema = paginationQuery({ pageSize: 50, maxPageSize: 200 }).extend({
  found: z.stringbool().optional(),
});
export const enrichmentResultsSchema = pageSchema(enrichmentResultSchema);
export type EnrichmentResults = z.infer<typeof enrichmentResultsSchema>;

/** `POST /api/v1/enrichments/:id/list`: a contact list of the phones found. */
export const enrichmentToListSchema = z.object({
  name: z.string().trim().min(1, 'Dê um nome à lista.').max(120),
  kinds: z.array(z.enum(['mobile', 'landline'])).min(1, 'Escolha celulares, fixos ou ambos.'),
});

export const adminEnrichmentsQuerySchema = paginationQuery().extend({
  userId: z.uuid().optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export const adminEnrichmentSchema = enrichmentSchema.extend({
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), company: z.string() }),
});
export const adminEnrichmentListSchema = pageSchema(adminEnrichmentSchema);
export type AdminEnrichmentList = z.infer<typeof adminEnrichmentListSchema>;

/** `GET /api/v1/admin/cnpj-base`: the live base and the last import. */
export const cnpjBaseImportSchema = z.object({
  id: z.string(),
  folder: z.string(),
  referenceMonth: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  file: z.string().nullable(),
  rows: z.number(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export const cnpjBaseSchema = z.object({
  referenceMonth: z.string().nullable(),
  establishments: z.number(),
  companies: z.number(),
  importedAt: z.string().nullable(),
  lastImport: cnpjBaseImportSchema.nullable(),
});
export type CnpjBaseInfo = z.infer<typeof cnpjBaseSchema>;
/** `POST /api/v1/admin/cnpj-base/import`: a refresh from a folder on the server. */
export const cnpjBaseImportRequestSchema = z.object({
  folder: z.string().trim().min(1).max(500),
  referenceMonth: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
});
