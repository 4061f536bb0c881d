import { z } from 'zod';

/** The one error format (see error-handler.ts), for route response schemas and the OpenAPI document. */
export const errorResponseSchema = z
  .object({
    message: z.string(),
    code: z.string(),
    details: z.unknown().optional(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .describe('{message, code}');
