/**
 * The enrichment module's public surface: the module as the composition root builds it, and its
 * service (CNPJs looked up in the CNPJ base, paid per hit).
 */
export { createEnrichmentModule, type EnrichmentModule } from './enrichment.module.ts';
export { createEnrichmentService, type EnrichmentService } from './enrichment.service.ts';
