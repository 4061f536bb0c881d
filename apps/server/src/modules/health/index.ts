/** The health module's public surface: the module (`GET /api/health` and `GET /api/v1/public-config`). */
export { createHealthModule, type HealthModule } from './health.module.ts';
