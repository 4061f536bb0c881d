/** The enrichment module's public surface: its service (CNPJs looked up in the CNPJ base, paid per hit). */
export { createEnrichmentService, type EnrichmentService } from './enrichment.service.ts';
