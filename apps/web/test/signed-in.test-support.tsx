import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { CreditsProvider } from '../src/features/credits';
import { AuthenticatedLayout } from '../src/features/shell/AuthenticatedLayout';
import { SessionProvider } from '../src/platform/SessionProvider';
import { renderWithApp } from './render.test-support';

/**
 * The signed-in frame as the app builds it (the session, the credits modals, the shell) around
 * `routes`, opened at `url`: for tests of what the header, sidebar and pages share.
 */
export const renderSignedIn = (routes: ReactNode, url: string) =>
  renderWithApp(
    <SessionProvider>
      <CreditsProvider>
        <Routes>
          <Route element={<AuthenticatedLayout />}>{routes}</Route>
        </Routes>
      </CreditsProvider>
    </SessionProvider>,
    { url },
  );
