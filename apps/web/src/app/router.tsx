import { ROUTES } from '@ecoa/shared';
import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import SignedInApp from '../features/shell/SignedInApp';

/**
 * Code splitting (docs/ARCHITECTURE.md): the first download holds only what the sign-in
 * screens need. This module, the router and the signed-in frame (shell, credits modals) are one
 * chunk (SignedInRoutes.tsx), fetched once a session exists; each page is another, fetched the
 * first time it is shown (what only one page uses, e.g. the lists' drop zone, travels with it).
 */

/** A named export of a page module as a lazy component. */
function lazyPage<M>(load: () => Promise<M>, name: keyof M) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const ListsPage = lazyPage(() => import('../features/lists/ListsPage'), 'ListsPage');
const AudiosPage = lazyPage(() => import('../features/audios/AudiosPage'), 'AudiosPage');
const CampaignsPage = lazyPage(() => import('../features/campaigns/CampaignsPage'), 'CampaignsPage');
const CampaignDetailPage = lazyPage(() => import('../features/campaigns/CampaignDetailPage'), 'CampaignDetailPage');
const CreateCampaignPage = lazyPage(
  () => import('../features/campaigns/wizard/CreateCampaignPage'),
  'CreateCampaignPage',
);
const AdminCampaignsPage = lazyPage(() => import('../features/campaigns/AdminCampaignsPage'), 'AdminCampaignsPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage'), 'DashboardPage');
const ShoppingPage = lazyPage(() => import('../features/credits/ShoppingPage'), 'ShoppingPage');
const SettingsPage = lazyPage(() => import('../features/settings/SettingsPage'), 'SettingsPage');
const AdminLinksPage = lazyPage(() => import('../features/links/AdminLinksPage'), 'AdminLinksPage');
const LinksPage = lazyPage(() => import('../features/links/LinksPage'), 'LinksPage');
const RepliesPage = lazyPage(() => import('../features/replies/RepliesPage'), 'RepliesPage');
const UsersPage = lazyPage(() => import('../features/admin-users/UsersPage'), 'UsersPage');
const EnrichmentPage = lazyPage(() => import('../features/enrichment/EnrichmentPage'), 'EnrichmentPage');
const EnrichmentDetailPage = lazyPage(
  () => import('../features/enrichment/EnrichmentDetailPage'),
  'EnrichmentDetailPage',
);
const AdminEnrichmentDetailPage = lazyPage(
  () => import('../features/enrichment/EnrichmentDetailPage'),
  'AdminEnrichmentDetailPage',
);
const AdminEnrichmentsPage = lazyPage(
  () => import('../features/enrichment/AdminEnrichmentsPage'),
  'AdminEnrichmentsPage',
);

export const router = createBrowserRouter([
  {
    element: <SignedInApp />,
    children: [
      { path: ROUTES.enrichment, element: <EnrichmentPage /> },
      { path: `${ROUTES.enrichment}/:id`, element: <EnrichmentDetailPage /> },
      { path: ROUTES.enrichmentPerUser, element: <AdminEnrichmentsPage /> },
      { path: `${ROUTES.enrichmentPerUser}/:id`, element: <AdminEnrichmentDetailPage /> },
      { path: ROUTES.lists, element: <ListsPage /> },
      { path: ROUTES.audios, element: <AudiosPage /> },
      { path: ROUTES.rotatingLink, element: <LinksPage /> },
      { path: ROUTES.links, element: <AdminLinksPage /> },
      { path: ROUTES.dashboard, element: <DashboardPage /> },
      { path: ROUTES.campaigns, element: <CampaignsPage /> },
      { path: ROUTES.createCampaign, element: <CreateCampaignPage /> },
      { path: `${ROUTES.campaigns}/:id`, element: <CampaignDetailPage /> },
      { path: ROUTES.campaignsPerUser, element: <AdminCampaignsPage /> },
      { path: ROUTES.replies, element: <RepliesPage /> },
      { path: ROUTES.shopping, element: <ShoppingPage /> },
      { path: ROUTES.settings, element: <SettingsPage /> },
      { path: ROUTES.users, element: <UsersPage /> },
      { path: '*', element: <Navigate to={ROUTES.dashboard} replace /> },
    ],
  },
]);
