import { CreditsProvider } from '../credits';
import { AuthenticatedLayout } from './AuthenticatedLayout';

/**
 * Everything a signed-in user has around the pages: the buy-credits and payment-result modals
 * (`useCredits()`) and the shell: the router's root route. It travels with the router in the
 * signed-in chunk (app/SignedInRoutes.tsx), so the sign-in screens never download it.
 */
export default function SignedInApp() {
  return (
    <CreditsProvider>
      <AuthenticatedLayout />
    </CreditsProvider>
  );
}
