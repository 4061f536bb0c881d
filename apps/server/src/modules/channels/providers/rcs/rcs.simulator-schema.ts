/**
 * The AgentMessage the simulator accepts: RBM's JSON shape (unknown fields refused, as the real
 * API does) and Google's published limits: text up to 3,072 characters, up to 11 message
 * suggestions and 4 per card, suggestion text up to 25 characters, card title up to 200 and
 * description up to 2,000 characters, postbackData up to 2,048.
 */
import { z } from 'zod';

const text25 = z.string().min(1).max(25);
const postback = z.string().min(1).max(2048);
const suggestion = z.union([
  z.strictObject({ reply: z.strictObject({ text: text25, postbackData: postback }) }),
  z.strictObject({
    action: z.strictObject({
      text: text25,
      postbackData: postback,
      openUrlAction: z.strictObject({ url: z.url({ protocol: /^https?$/ }) }),
    }),
  }),
]);

const cardContent = z
  .strictObject({
    title: z.string().min(1).max(200).optional(),
    description: z.string().min(1).max(2000).optional(),
    media: z
      .strictObject({
        height: z.enum(['SHORT', 'MEDIUM', 'TALL']),
        contentInfo: z.strictObject({
          fileUrl: z.url({ protocol: /^https?$/ }),
          thumbnailUrl: z.url().optional(),
          forceRefresh: z.boolean().optional(),
        }),
      })
      .optional(),
    suggestions: z.array(suggestion).max(4).optional(),
  })
  .refine((c) => c.title || c.description || c.media, 'a card needs a title, a description or media');

export const rbmAgentMessage = z.strictObject({
  contentMessage: z
    .strictObject({
      text: z.string().min(1).max(3072).optional(),
      richCard: z
        .strictObject({
          standaloneCard: z.strictObject({
            cardOrientation: z.enum(['VERTICAL', 'HORIZONTAL']).optional(),
            thumbnailImageAlignment: z.enum(['LEFT', 'RIGHT']).optional(),
            cardContent,
          }),
        })
        .optional(),
      suggestions: z.array(suggestion).max(11).optional(),
    })
    .refine((m) => (m.text === undefined) !== (m.richCard === undefined), 'exactly one of text and richCard'),
  ttl: z
    .string()
    .regex(/^\d+(\.\d+)?s$/)
    .optional(),
  expireTime: z.iso.datetime().optional(),
});
