import { z } from 'zod';
import { PHONE_INVALID_REASONS } from '../phones/normalize.ts';

/** How a number came into the opt-out list. */
export const OPT_OUT_SOURCES = ['manual', 'upload', 'reply'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** `POST /api/v1/opt-outs` takes at most this many numbers at once (more: a file). */
export const OPT_OUT_ADD_MAX = 1000;

/** One item of `GET /api/v1/opt-outs`. */
export const optOutSchema = z.object({ phone: z.string(), source: z.enum(OPT_OUT_SOURCES), createdAt: z.string() });
export type OptOut = z.infer<typeof optOutSchema>;

/** `POST /api/v1/opt-outs` and `POST /api/v1/opt-outs/upload`: what the numbers sent became. */
export const optOutSummarySchema = z.object({
  added: z.number(),
  alreadyOptedOut: z.number(),
  invalid: z.number(),
  /** The first invalid values with their reason (at most 20). */
  invalidSamples: z.array(z.object({ value: z.string(), reason: z.enum(PHONE_INVALID_REASONS) })),
});
export type OptOutSummary = z.infer<typeof optOutSummarySchema>;
