import { GTM_CONTAINER_ID_PATTERN, GTM_ORIGIN, type PublicConfig } from '@ecoa/shared';
import type { QueryClient } from '@tanstack/react-query';
import { publicConfigQuery } from './support';

/**
 * Analytics events go to Google Tag Manager's `window.dataLayer` (spec: 'cria-conta', 'whatsapp').
 * The operator's container (GTM_CONTAINER_ID, from `GET /api/v1/public-config`) reads it; events
 * pushed before its script arrives wait in the layer and reach it then. Without a container
 * nothing is loaded and the layer stays in the page.
 */
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

/**
 * Loads the container's script once, as Google's snippet does (the start event, then `gtm.js`
 * from its one host), but from here: the CSP allows no inline script. An id of any other form
 * is ignored (the server validates it too). Returns whether a container is on the page.
 */
export function loadTagManager(config: Pick<PublicConfig, 'gtmContainerId'> | undefined): boolean {
  const id = config?.gtmContainerId;
  if (!id || !GTM_CONTAINER_ID_PATTERN.test(id)) return false;
  if (document.querySelector(`script[data-gtm-container="${id}"]`)) return true;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `${GTM_ORIGIN}/gtm.js?id=${id}`;
  script.dataset.gtmContainer = id;
  document.head.appendChild(script);
  return true;
}

/** At start: the public settings asked once (the support number too), then the container if there is one. */
export async function startTagManager(queryClient: QueryClient): Promise<boolean> {
  try {
    return loadTagManager(await queryClient.fetchQuery(publicConfigQuery));
  } catch {
    // No answer: no tag manager on this page; the events still wait in the layer.
    return false;
  }
}
