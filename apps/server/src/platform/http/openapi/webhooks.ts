import { WEBHOOK_EVENT_SCHEMAS, WEBHOOK_TEST_EVENT } from '@ecoa/shared';
import type { OpenAPIV3_1 } from 'openapi-types';
import { z } from 'zod';

const SIGNATURE_HEADERS = [
  ['webhook-id', 'The event id (`evt_…`): the same on every retry and replay, deduplicate on it'],
  ['webhook-timestamp', 'Unix seconds of this attempt; refuse one far from your clock (replays)'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the endpoint secret; two, space-separated, while a rotated-out secret still signs',
  ],
] as const;

/**
 * The OpenAPI 3.1 `webhooks`: what Ecoa posts to a customer's endpoint, one entry per event type,
 * its schema (JSON Schema 2020-12, from the shared zod schema) and an example.
 */
export function webhooksSection(): OpenAPIV3_1.Document['webhooks'] {
  const section: Record<string, unknown> = {};
  for (const [type, schema] of Object.entries(WEBHOOK_EVENT_SCHEMAS)) {
    const { $schema: _, examples, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' });
    section[type] = {
      post: {
        summary:
          type === WEBHOOK_TEST_EVENT
            ? 'Sent by "send test event" only (never subscribed to)'
            : `\`${type}\`: posted to the endpoints subscribed to it`,
        description:
          'Standard Webhooks: verify the signature (e.g. the `standardwebhooks` package) before trusting the body. At least once, retried with backoff for 3 days.',
        tags: ['webhook events'],
        parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
          in: 'header',
          name,
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json, example: examples?.[0] } },
        },
        responses: { '200': { description: 'Any 2xx within 10 s is a delivery; anything else is retried' } },
      },
    };
  }
  // openapi-types' schema unions reject zod's JSON Schema output; the test validates the result instead.
  return section as OpenAPIV3_1.Document['webhooks'];
}
