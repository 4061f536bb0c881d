/** Analytics events go to Google Tag Manager's `window.dataLayer` (spec: 'cria-conta', 'whatsapp'). */
export type AnalyticsEvent = 'cria-conta' | 'whatsapp';

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export function track(event: AnalyticsEvent, data: Record<string, unknown> = {}): void {
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ event, ...data });
}
