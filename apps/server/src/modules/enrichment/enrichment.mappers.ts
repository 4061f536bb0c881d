/** An enrichment and its items as the API shows them. */
import { CNPJ_SITUATIONS, type CnpjSituationCode, type Enrichment, type EnrichmentResult } from '@ecoa/shared';
import type { EnrichmentItemRow, EnrichmentRow } from './enrichment.schema.ts';

export function toEnrichmentDto(row: EnrichmentRow): Enrichment {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    onlyActive: row.onlyActive,
    progress: row.progress,
    total: row.total,
    valid: row.valid,
    invalid: row.invalid,
    duplicates: row.duplicates,
    found: row.found,
    withPhone: row.withPhone,
    notFound: row.notFound,
    credits: { reserved: row.creditsReserved, used: row.creditsUsed, released: row.creditsReleased },
    baseMonth: row.baseMonth,
    invalidItems: row.invalidItems,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function toResult(item: EnrichmentItemRow): EnrichmentResult {
  return {
    cnpj: item.cnpj,
    found: item.found,
    companyName: item.companyName,
    tradeName: item.tradeName,
    situation: item.situation === null ? null : (CNPJ_SITUATIONS[item.situation as CnpjSituationCode] ?? null),
    city: item.city,
    uf: item.uf,
    cnae: item.cnae,
    phones: item.phones,
    email: item.email,
  };
}
