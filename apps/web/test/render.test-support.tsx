import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, vi } from 'vitest';
import cn from '../public/locales/cn.json';
import en from '../public/locales/en.json';
import pt from '../public/locales/pt.json';

/** Records the router's current path and search into `into.current`. */
function LocationProbe({ into }: { into: { current: string } }) {
  const l = useLocation();
  into.current = `${l.pathname}${l.search}`;
  return null;
}

/**
 * Test-only: the real texts (pt unless `lng` says otherwise), Mantine in test mode (no
 * transitions/portals) with its modals manager, a router and a query client.
 */
export async function renderWithApp(ui: ReactNode, options: { url?: string; lng?: 'pt' | 'en' | 'cn' } = {}) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: options.lng ?? 'pt',
    resources: { pt: { translation: pt }, en: { translation: en }, cn: { translation: cn } },
    interpolation: { escapeValue: false },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const location = { current: '' };
  const utils = render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[options.url ?? '/']}>
            <ModalsProvider>
              <LocationProbe into={location} />
              <Routes>
                <Route path="*" element={ui} />
              </Routes>
            </ModalsProvider>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  return { ...utils, location, queryClient };
}

/**
 * A screen test file's reset: after each test its screen is unmounted and the globals it stubbed
 * (fetch, XMLHttpRequest) are the real ones again; `more` resets what else the file changed.
 */
export function resetAfterEach(more?: () => void): void {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    more?.();
  });
}

/**
 * The global i18next in pt, for the files whose code reads it outside React's context (lists'
 * error texts, `i18n.getFixedT`): `renderWithApp`'s own instance does not reach it.
 */
export function withGlobalPtTexts(): void {
  beforeAll(async () => {
    await i18next.use(initReactI18next).init({ lng: 'pt', resources: { pt: { translation: pt } } });
  });
}
