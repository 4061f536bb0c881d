/**
 * The dashboard module's public surface: the module as the composition root builds it, and the
 * home page's service.
 */
export { createDashboardModule, type DashboardModule } from './dashboard.module.ts';
export { createDashboardService, type DashboardService } from './dashboard.service.ts';
