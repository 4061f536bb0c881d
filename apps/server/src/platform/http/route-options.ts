/**
 * The options every guarded API route repeats: its `onRequest` guard, its OpenAPI tags, the
 * bearer security, and the error answers its group shares beside its own. A routes file makes
 * one maker per group and each route states only what is its own:
 *
 *   const userRoute = routeOptions(guard.requireUser, { tags: ['links'], errors });
 *   r.get('/api/v1/links/:id', userRoute({ summary: 'A link', params, response: { 200: linkSchema } }), handler);
 */
import type { onRequestAsyncHookHandler } from 'fastify';

/** The OpenAPI security of every route behind a session (or, for the developers' API, a key). */
export const BEARER_SECURITY = [{ bearer: [] }];

type RouteSchema = { summary?: string; response?: Record<number, unknown> } & Record<string, unknown>;

export function routeOptions<const Errors extends Record<number, unknown> = Record<never, never>>(
  onRequest: onRequestAsyncHookHandler,
  group: { tags: string[]; errors?: Errors },
) {
  // A route without `response` documents none (a download); `response: {}` means the group's errors only.
  return <const Schema extends RouteSchema>(schema: Schema) => ({
    onRequest,
    schema: {
      tags: group.tags,
      security: BEARER_SECURITY,
      ...schema,
      ...(schema.response && {
        response: { ...schema.response, ...group.errors } as Schema['response'] & Errors,
      }),
    },
  });
}
