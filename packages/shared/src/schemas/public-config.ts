import { z } from 'zod';

/**
 * `GET /api/v1/public-config`: the server's settings the web app needs before anyone signs in,
 * read at run time (a build of the web app serves every deployment).
 */
export const publicConfigSchema = z.object({
  /** The support/sales chat number (SUPPORT_WHATSAPP), international digits: the chat-app links. */
  supportWhatsapp: z.string().regex(/^\d{12,13}$/),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const PUBLIC_CONFIG_PATH = '/api/v1/public-config';
