import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Center, Loader, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { RouterProvider } from 'react-router';
import { SessionProvider } from '../features/auth/SessionProvider';
import { LocalizedTheme } from './LocalizedTheme';
import { queryClient } from './queryClient';
import { router } from './router';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

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
            <ModalsProvider>
              <SessionProvider>
                <RouterProvider router={router} />
              </SessionProvider>
            </ModalsProvider>
          </LocalizedTheme>
        </Suspense>
      </QueryClientProvider>
    </MantineProvider>
  );
}
