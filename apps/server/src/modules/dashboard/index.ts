/** The dashboard module's public surface: the home page's service. */
export { createDashboardService, type DashboardService } from './dashboard.service.ts';
