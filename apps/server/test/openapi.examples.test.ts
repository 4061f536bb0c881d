/**
 * The published OpenAPI document (GET /api/docs/json) is OpenAPI 3.1, every public route (one an
 * API key may call) has a request example when it takes a body and an example of each 2xx answer
 * with a body, every webhook event has a payload example, and each example validates against its
 * own schema in the document (JSON Schema 2020-12), so an example cannot drift from what is served.
 */
import { WEBHOOK_EVENT_TYPES } from '@ecoa/shared';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server.ts';
import { SCOPED } from './access.scoped.test-support.ts';
import { createTestServer } from './server.test-support.ts';

type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Operation }>;
};

let server: RunningServer;
let doc: Document;

beforeAll(async () => {
  server = await createTestServer({ work: false });
  const res = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await server?.close();
});

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

/** What is wrong with one media type's examples: missing, or not valid against its schema. */
function mediaProblems(where: string, media: Media): string[] {
  const examples =
    media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
  if (examples.length === 0) return [`${where}: no example`];
  if (!media.schema) return [`${where}: no schema`];
  const validate = ajv.compile(media.schema);
  return examples.flatMap((example) =>
    validate(example) ? [] : [`${where}: example does not match its schema: ${ajv.errorsText(validate.errors)}`],
  );
}

/** The body's examples, and each 2xx answer's that has a body (a 204 has none to show). */
function operationProblems(where: string, op: Operation): string[] {
  const problems: string[] = [];
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
    problems.push(...mediaProblems(`${where} request ${type}`, media));
  const ok = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
  if (ok.length === 0) problems.push(`${where}: no 2xx answer documented`);
  for (const [status, answer] of ok)
    for (const [type, media] of Object.entries(answer.content ?? {}))
      problems.push(...mediaProblems(`${where} ${status} ${type}`, media));
  return problems;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('every public route has request and 2xx examples that validate against their schemas', () => {
    const problems: string[] = [];
    for (const route of Object.keys(SCOPED)) {
      const [method, path] = route.split(' ') as [string, string];
      const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      if (!op) problems.push(`${route}: not in the document`);
      else problems.push(...operationProblems(route, op));
    }
    expect(problems).toEqual([]);
  });

  it('every webhook event is in `webhooks` with a payload example that validates against its schema', () => {
    expect(Object.keys(doc.webhooks ?? {})).toEqual(expect.arrayContaining([...WEBHOOK_EVENT_TYPES]));
    const problems: string[] = [];
    for (const [event, item] of Object.entries(doc.webhooks ?? {})) {
      const media = item.post.requestBody?.content['application/json'];
      if (!media) problems.push(`${event}: no JSON body`);
      else problems.push(...mediaProblems(event, media));
      expect((media?.example as { type?: string } | undefined)?.type, event).toBe(event);
    }
    expect(problems).toEqual([]);
  });

  it('the check itself catches a lying example', () => {
    const media = doc.paths['/api/v1/messages']?.post?.requestBody?.content['application/json'];
    expect(media).toBeDefined();
    expect(mediaProblems('x', { ...media!, example: { channel: 'fax', to: 1 } })).toHaveLength(1);
    expect(mediaProblems('x', { schema: media!.schema })).toEqual(['x: no example']);
  });
});
