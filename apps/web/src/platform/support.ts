import { PUBLIC_CONFIG_PATH, type PublicConfig } from '@ecoa/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { platformKeys } from './queryKeys';

/**
 * The support/sales chat contact (spec: the chat-app links; blueprint SUPPORT_WHATSAPP). The
 * number is the server's SUPPORT_WHATSAPP, read at run time from `GET /api/v1/public-config`:
 * one build of the web app serves every deployment, each with its own number. Every link to the
 * support chat (the green button, the PIX hand-off, the sign-up's "talk to support") comes here.
 */

export const publicConfigQuery = {
  queryKey: platformKeys.publicConfig,
  queryFn: () => api.get<PublicConfig>(PUBLIC_CONFIG_PATH, { auth: 'none' }),
  // It changes only when the server restarts with another setting.
  staleTime: 30 * 60 * 1000,
};

/** The support chat number, or undefined until the server has said it (or when it could not be asked). */
export function useSupportWhatsapp(): string | undefined {
  return useQuery(publicConfigQuery).data?.supportWhatsapp;
}

/** A wa.me link to `number` with a prefilled message. */
export function supportChatUrl(number: string, message: string): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(message)}`;
}

/**
 * Opens the support chat in a new tab. Returns false when it could not: the number is not known
 * yet (the server did not answer) or the browser refused (pop-up blocked), so the caller can say
 * the hand-off failed.
 */
export function openSupportChat(number: string | undefined, message: string): boolean {
  if (!number) return false;
  try {
    const tab = window.open(supportChatUrl(number, message), '_blank');
    if (!tab) return false;
    tab.opener = null;
    return true;
  } catch {
    return false;
  }
}
