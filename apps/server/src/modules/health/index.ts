/** The health module's public surface: `GET /api/health` and `GET /api/v1/public-config`. */
export { registerHealthRoutes } from './health.routes.ts';
export { registerPublicConfigRoutes } from './public-config.routes.ts';
