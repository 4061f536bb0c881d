/** The metrics module's public surface: `GET /metrics` and its response hook, registered first. */
export { registerMetrics } from './metrics.module.ts';
