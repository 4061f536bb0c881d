/**
 * The examples of the public routes (the ones an API key may call), keyed like the access matrix
 * (`METHOD /path`). They live beside the OpenAPI document rather than in the shared zod schemas:
 * the web app bundles those schemas, and one schema serves several routes whose answers differ.
 * test/openapi.examples.test.ts fails when a public route lacks one or one does not validate
 * against the route's own schema in the published document.
 */
export type RouteExamples = {
  /** The JSON request body. */
  body?: unknown;
  /** Per 2xx status: the JSON answer, or `null` for an answer without a body. */
  responses: Record<number, unknown>;
  /** A route that answers a CSV file: its status and an example (the route has no JSON schema for it). */
  csv?: { status: number; example: string };
  /** A multipart form the route reads itself (no body schema to derive): its fields and an example. */
  form?: { schema: Record<string, unknown>; example: Record<string, string> };
  /** Per 2xx status, the JSON Schema of an answer the route sends without one (checked against its example). */
  undeclared?: Record<number, Record<string, unknown>>;
};

/** Ids the examples share, so they read as one story. */
export const IDS = {
  campaign: '3f6c1a52-8d0e-4b7a-9c1d-2e5f7a8b9c0d',
  list: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  message: '9b2e4c6d-1a3f-4e5b-8c7d-6f0a1b2c3d4e',
  message2: '0c1d2e3f-4a5b-4c6d-9e7f-8a9b0c1d2e3f',
  batch: '7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b',
  reply: 'c4d5e6f7-0a1b-4c2d-9e3f-5a6b7c8d9e0f',
  endpoint: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
  delivery: 'e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b',
} as const;
