/**
 * The support/sales chat contact (spec: the chat-app links; blueprint SUPPORT_WHATSAPP). This is
 * the one place the web app knows it. The server has the same setting (SUPPORT_WHATSAPP); when it
 * exposes it through the API, read it here. Build-time override: VITE_SUPPORT_WHATSAPP.
 */
export const SUPPORT_WHATSAPP_DEFAULT = '5511999999999';
export const SUPPORT_WHATSAPP: string = import.meta.env.VITE_SUPPORT_WHATSAPP || SUPPORT_WHATSAPP_DEFAULT;

/** A wa.me link with a prefilled message. */
export function supportChatUrl(message: string): string {
  return `https://wa.me/${SUPPORT_WHATSAPP}?text=${encodeURIComponent(message)}`;
}

/**
 * Opens the support chat in a new tab. Returns false when the browser refused (pop-up blocked),
 * so the caller can say the hand-off failed.
 */
export function openSupportChat(message: string): boolean {
  try {
    const tab = window.open(supportChatUrl(message), '_blank');
    if (!tab) return false;
    tab.opener = null;
    return true;
  } catch {
    return false;
  }
}
