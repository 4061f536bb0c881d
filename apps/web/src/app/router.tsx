import { ROUTES } from '@ecoa/shared';
import { createBrowserRouter, Navigate } from 'react-router';
import { UsersPage } from '../features/admin-users/UsersPage';
import { AuthGate } from '../features/auth/AuthGate';
import { CreditsProvider } from '../features/credits/CreditsProvider';
import { ShoppingPage } from '../features/credits/ShoppingPage';
import { ListsPage } from '../features/lists/ListsPage';
import { PlaceholderPage } from '../features/placeholder/PlaceholderPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { AuthenticatedLayout } from '../features/shell/AuthenticatedLayout';

/** The spec's routes (section 2). Each page is filled in by its feature's issue. */
const PAGES: { path: string; titleKey: string }[] = [
  { path: ROUTES.dashboard, titleKey: 'nav.dashboard' },
  { path: ROUTES.campaigns, titleKey: 'nav.campaigns' },
  { path: ROUTES.createCampaign, titleKey: 'nav.createCampaign' },
  { path: ROUTES.audios, titleKey: 'nav.audios' },
  { path: ROUTES.rotatingLink, titleKey: 'nav.rotatingLink' },
  { path: ROUTES.enrichment, titleKey: 'nav.enrichment' },
  { path: ROUTES.campaignsPerUser, titleKey: 'nav.campaignsPerUser' },
  { path: ROUTES.enrichmentPerUser, titleKey: 'nav.enrichmentPerUser' },
  { path: ROUTES.links, titleKey: 'nav.links' },
];

export const router = createBrowserRouter([
  {
    element: (
      <AuthGate>
        {/* The buy-credits modal and the payment-result modals, on every page: useCredits(). */}
        <CreditsProvider>
          <AuthenticatedLayout />
        </CreditsProvider>
      </AuthGate>
    ),
    children: [
      ...PAGES.map((p) => ({ path: p.path, element: <PlaceholderPage key={p.path} titleKey={p.titleKey} /> })),
      { path: ROUTES.lists, element: <ListsPage /> },
      { path: ROUTES.shopping, element: <ShoppingPage /> },
      { path: ROUTES.settings, element: <SettingsPage /> },
      { path: ROUTES.users, element: <UsersPage /> },
      { path: '*', element: <Navigate to={ROUTES.dashboard} replace /> },
    ],
  },
]);
