import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../platform/SessionProvider';
import { useAccountBalance, useCredits } from '../credits';
import { canOpen } from './navigation';
import { PageLoader } from './PageLoader';
import { ShellLayout } from './ShellLayout';

/**
 * The signed-in frame of every page: the shell around the current route, which is only rendered
 * when the user may open it (spec section 6: non-admins are sent to `/`). The server enforces the
 * same rules on every endpoint; this guard only keeps people off pages they cannot use.
 * Pages are loaded on demand: while one's code arrives, the shell stays and its content area
 * shows a spinner.
 */
export function AuthenticatedLayout() {
  const { user, signOut } = useSession();
  const { openBuyCredits } = useCredits();
  const { money } = useAccountBalance();
  const { pathname } = useLocation();
  if (!user) return null;
  return (
    <ShellLayout user={user} money={money} onSignOut={() => void signOut()} onOpenCredits={openBuyCredits}>
      {canOpen(pathname, user) ? (
        // Keyed by the path: a new boundary shows the spinner at once when the next page's code is
        // still on its way, instead of the previous page lingering under the new URL.
        <Suspense key={pathname} fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      ) : (
        <Navigate to="/" replace />
      )}
    </ShellLayout>
  );
}
