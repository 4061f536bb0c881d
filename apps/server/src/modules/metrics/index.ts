/**
 * The metrics module's public surface: the module (`GET /metrics` and its response hook), its
 * routes registered first.
 */
export { createMetricsModule, type MetricsModule } from './metrics.module.ts';
