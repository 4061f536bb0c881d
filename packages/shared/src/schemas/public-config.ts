import { z } from 'zod';
import { GTM_CONTAINER_ID_PATTERN } from '../constants.ts';

/**
 * `GET /api/v1/public-config`: the server's settings the web app needs before anyone signs in,
 * read at run time (a build of the web app serves every deployment).
 */
export const publicConfigSchema = z.object({
  /** The support/sales chat number (SUPPORT_WHATSAPP), international digits: the chat-app links. */
  supportWhatsapp: z.string().regex(/^\d{12,13}$/),
  /**
   * The operator's Google Tag Manager container (GTM_CONTAINER_ID): the web app loads its script
   * and the analytics events ('cria-conta', 'whatsapp') reach it. Absent: no tag manager at all.
   */
  gtmContainerId: z.string().regex(GTM_CONTAINER_ID_PATTERN).optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const PUBLIC_CONFIG_PATH = '/api/v1/public-config';
