import { dashboardSummarySchema } from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { routeOptions } from '../../platform/http/route-options.ts';
import type { DashboardService } from './dashboard.service.ts';

/** `GET /api/v1/dashboard/summary` (the balance card reads `GET /api/v1/dashboard/balance`, the ledger's). */
export function registerDashboardRoutes(app: FastifyInstance, deps: { dashboard: DashboardService; guard: AuthGuard }) {
  const userRoute = routeOptions(deps.guard.requireUser, { tags: ['dashboard'], errors: { 401: errorResponse } });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/dashboard/summary',
    userRoute({
      summary: 'Campaigns now, messages per day and channel over 30 days, the first steps',
      response: { 200: dashboardSummarySchema },
    }),
    async (request) => deps.dashboard.summary(currentUser(request).id),
  );
}
