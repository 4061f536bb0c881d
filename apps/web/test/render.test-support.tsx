import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import pt from '../public/locales/pt.json';

/** Records the router's current path and search into `into.current`. */
function LocationProbe({ into }: { into: { current: string } }) {
  const l = useLocation();
  into.current = `${l.pathname}${l.search}`;
  return null;
}

/** Test-only: the real pt texts, Mantine in test mode (no transitions/portals), a router and a query client. */
export async function renderWithApp(ui: ReactNode, options: { url?: string } = {}) {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'pt',
    resources: { pt: { translation: pt } },
    interpolation: { escapeValue: false },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const location = { current: '' };
  const utils = render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider env="test">
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[options.url ?? '/']}>
            <LocationProbe into={location} />
            <Routes>
              <Route path="*" element={ui} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  return { ...utils, location, queryClient };
}
