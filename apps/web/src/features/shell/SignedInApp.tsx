import { CreditsProvider } from '../credits/CreditsProvider';
import { AuthenticatedLayout } from './AuthenticatedLayout';

/**
 * Everything a signed-in user has around the pages: the buy-credits and payment-result modals
 * (`useCredits()`) and the shell. A chunk of its own (router.tsx), so the sign-in screens never
 * download it.
 */
export default function SignedInApp() {
  return (
    <CreditsProvider>
      <AuthenticatedLayout />
    </CreditsProvider>
  );
}
