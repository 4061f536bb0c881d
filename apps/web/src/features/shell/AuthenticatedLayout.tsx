import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../auth/SessionProvider';
import { useCredits } from '../credits/CreditsProvider';
import { canOpen } from './navigation';
import { ShellLayout } from './ShellLayout';

/**
 * The signed-in frame of every page: the shell around the current route, which is only rendered
 * when the user may open it (spec section 6: non-admins are sent to `/`). The server enforces the
 * same rules on every endpoint; this guard only keeps people off pages they cannot use.
 */
export function AuthenticatedLayout() {
  const { user, signOut } = useSession();
  const { openBuyCredits } = useCredits();
  const { pathname } = useLocation();
  if (!user) return null;
  return (
    <ShellLayout user={user} onSignOut={() => void signOut()} onOpenCredits={openBuyCredits}>
      {canOpen(pathname, user) ? <Outlet /> : <Navigate to="/" replace />}
    </ShellLayout>
  );
}
