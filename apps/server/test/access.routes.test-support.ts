/**
 * The route list the access tests share: the routes answered without a session, on purpose, and
 * a callable URL for a route pattern (access.guards.test.ts, access.scopes.test.ts).
 */

/** Answered without a session, on purpose: sign-in, public pages and files, carriers' callbacks. */
export const PUBLIC = new Set([
  'GET *', // the web app
  'GET /locales/:lng',
  'GET /api/health',
  'GET /api/v1/public-config',
  'GET /metrics', // its own METRICS_TOKEN
  'POST /api/auth/request-code',
  'POST /api/auth/resend-code',
  'POST /api/auth/login',
  'POST /api/auth/logout', // ends the session its token names, if any
  'POST /api/user', // sign-up
  'GET /api/me', // checks the session itself, in the same statement that reads the account
  'GET /api/v1/avatars/:file', // by an unguessable name
  'GET /api/v1/audios/play/:token', // by a signed link, for the carrier
  'GET /l/:slug',
  'GET /api/webhooks/whatsapp/events',
  'POST /api/webhooks/whatsapp/events',
  'POST /api/webhooks/rcs/events',
  'POST /api/webhooks/voice/calls/:messageId/twiml',
  'POST /api/webhooks/voice/calls/:messageId/gather',
  'POST /api/webhooks/voice/calls/:messageId/status',
  'POST /api/webhooks/stripe',
  'GET /api/checkout/test/:paymentId',
  'POST /api/checkout/test/:paymentId/pay',
  'POST /api/checkout/test/:paymentId/cancel',
]);
export const isPublic = (route: string) => PUBLIC.has(route) || route.startsWith('GET /api/docs');

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/** A callable URL for a route pattern: every parameter filled in with a well-formed id. */
export function urlOf(path: string): string {
  return path.replace(/:[A-Za-z]+/g, SAMPLE_ID).replace(/\*$/, 'x');
}
