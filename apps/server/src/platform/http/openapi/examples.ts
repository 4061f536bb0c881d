import type { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { CAMPAIGN_EXAMPLES } from './examples.campaigns.ts';
import { MESSAGING_EXAMPLES } from './examples.messaging.ts';
import type { RouteExamples } from './examples.types.ts';
import { WEBHOOK_ROUTE_EXAMPLES } from './examples.webhooks.ts';

/** Every public route's examples, by `METHOD /path` (the path as registered, `:id` and all). */
export const API_EXAMPLES: Readonly<Record<string, RouteExamples>> = {
  ...CAMPAIGN_EXAMPLES,
  ...MESSAGING_EXAMPLES,
  ...WEBHOOK_ROUTE_EXAMPLES,
};

type Transform = typeof jsonSchemaTransform;
type JsonSchema = Record<string, unknown>;

/**
 * The zod transform, then the route's examples put where @fastify/swagger turns them into the
 * media type's `example`: `examples` on the body's and each answer's schema. What the route reads
 * or sends without a schema (a multipart form, no body, a CSV file, an undeclared JSON answer) is
 * described here, for the document only.
 */
export function withExamples(transform: Transform): Transform {
  return (input) => {
    const out = transform(input);
    const methods = [input.route.method].flat();
    const examples = methods.map((m) => API_EXAMPLES[`${m} ${input.url}`]).find(Boolean);
    if (!examples || out.schema.hide) return out;
    const schema = out.schema as { body?: JsonSchema; response?: Record<string, JsonSchema> };
    if (examples.body !== undefined && schema.body) schema.body.examples = [examples.body];
    if (examples.form) schema.body = { ...examples.form.schema, examples: [examples.form.example] };
    schema.response ??= {};
    const response = schema.response;
    for (const [status, undeclared] of Object.entries(examples.undeclared ?? {}))
      response[status] ??= { ...undeclared };
    for (const [status, example] of Object.entries(examples.responses)) {
      if (example === null) response[status] ??= { type: 'null', description: 'No body' };
      else if (response[status]) response[status].examples = [example];
    }
    if (examples.csv) {
      response[examples.csv.status] = {
        description: 'A CSV file (`;`, UTF-8 with BOM), streamed',
        content: { 'text/csv': { schema: { type: 'string' }, example: examples.csv.example } },
      };
    }
    return out;
  };
}
