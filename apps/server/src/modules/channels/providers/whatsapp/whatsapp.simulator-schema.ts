/**
 * The sends the simulator accepts: a template, the Cloud API's shape for a business-initiated
 * template message with text body parameters (template names are lowercase with underscores;
 * parameter texts non-empty and bounded).
 */
import { z } from 'zod';

export const graphTemplateSend = z.object({
  messaging_product: z.literal('whatsapp'),
  recipient_type: z.literal('individual').optional(),
  to: z.string().regex(/^\+?[1-9]\d{7,14}$/),
  type: z.literal('template'),
  template: z.object({
    name: z.string().regex(/^[a-z0-9_]{1,512}$/),
    language: z.object({ code: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/) }),
    components: z
      .array(
        z.object({
          type: z.literal('body'),
          parameters: z.array(z.object({ type: z.literal('text'), text: z.string().min(1).max(32_768) })),
        }),
      )
      .optional(),
  }),
});

/** A free-form text: the Cloud API takes it only inside the 24-hour window after the user wrote. */
export const graphTextSend = z.object({
  messaging_product: z.literal('whatsapp'),
  recipient_type: z.literal('individual').optional(),
  to: z.string().regex(/^\+?[1-9]\d{7,14}$/),
  type: z.literal('text'),
  text: z.object({ body: z.string().min(1).max(4096), preview_url: z.boolean().optional() }),
});

export const graphSend = z.discriminatedUnion('type', [graphTemplateSend, graphTextSend]);
