import { ModalsProvider } from '@mantine/modals';
import { RouterProvider } from 'react-router';
import { router } from './router';

/**
 * Everything behind the sign-in: the router with its routes, the signed-in frame and the modals
 * manager (only signed-in screens open confirmation modals). A chunk of its own (App.tsx), so the
 * sign-in screens download none of it; the URL is read once this arrives, so a visitor who signs
 * in lands on the page they asked for.
 */
export default function SignedInRoutes() {
  return (
    <ModalsProvider>
      <RouterProvider router={router} />
    </ModalsProvider>
  );
}
