import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Center, Loader, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { AuthGate } from '../features/auth/AuthGate';
import { SessionProvider } from '../platform/SessionProvider';
import { LocalizedTheme } from './LocalizedTheme';
import { queryClient } from './queryClient';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

/**
 * The router, its routes and the signed-in frame are a chunk of their own (SignedInRoutes.tsx):
 * a signed-out visitor sees the sign-in flow on any URL and never downloads them.
 */
const loadSignedInRoutes = () => import('./SignedInRoutes');
const SignedInRoutes = lazy(loadSignedInRoutes);

export function FullPageLoader() {
  return (
    <Center h="100vh" data-testid="page-loader">
      <Loader />
    </Center>
  );
}

export function App() {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <QueryClientProvider client={queryClient}>
        {/* The language loads under Suspense; what is localized in the theme sits inside it. */}
        <Suspense fallback={<FullPageLoader />}>
          <LocalizedTheme>
            <Notifications position="top-right" />
            <SessionProvider>
              {/* While a stored session is checked, the signed-in code is fetched alongside. */}
              <AuthGate preload={loadSignedInRoutes}>
                <SignedInRoutes />
              </AuthGate>
            </SessionProvider>
          </LocalizedTheme>
        </Suspense>
      </QueryClientProvider>
    </MantineProvider>
  );
}
