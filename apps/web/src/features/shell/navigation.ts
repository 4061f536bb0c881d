import { ROUTES } from '@ecoa/shared';

/** What the shell needs to know about the signed-in user (a subset of GET /api/me). */
export type ShellUser = {
  name: string;
  email: string;
  accessLevel: string;
  isNewUser: boolean;
  userProfileImageLink: string | null;
  balance: { money: number };
  permissions: { enriched: string[] };
};

export type NavVisibility = 'all' | 'admin' | 'enrichment';

export type NavItem = { path: string; labelKey: string; icon: string; visibility: NavVisibility; badgeKey?: string };

/**
 * The spec's sidebar (section 2), in its order, the replies inbox (issue 23) after the campaigns'
 * tools, and the administrators' links page beside their other pages.
 */
export const NAV_ITEMS: NavItem[] = [
  { path: ROUTES.dashboard, labelKey: 'nav.dashboard', icon: 'dashboard', visibility: 'all' },
  { path: ROUTES.lists, labelKey: 'nav.lists', icon: 'lists', visibility: 'all' },
  { path: ROUTES.campaigns, labelKey: 'nav.campaigns', icon: 'campaigns', visibility: 'all' },
  { path: ROUTES.audios, labelKey: 'nav.audios', icon: 'audios', visibility: 'all' },
  {
    path: ROUTES.rotatingLink,
    labelKey: 'nav.rotatingLink',
    icon: 'rotatingLink',
    visibility: 'all',
    badgeKey: 'nav.new',
  },
  { path: ROUTES.replies, labelKey: 'nav.replies', icon: 'replies', visibility: 'all' },
  { path: ROUTES.enrichment, labelKey: 'nav.enrichment', icon: 'enrichment', visibility: 'enrichment' },
  { path: ROUTES.shopping, labelKey: 'nav.shopping', icon: 'shopping', visibility: 'all' },
  { path: ROUTES.campaignsPerUser, labelKey: 'nav.campaignsPerUser', icon: 'campaignsPerUser', visibility: 'admin' },
  { path: ROUTES.enrichmentPerUser, labelKey: 'nav.enrichmentPerUser', icon: 'enrichmentPerUser', visibility: 'admin' },
  // The spec's table leaves /links out (it names it only as admin-restricted): administrators reach it here.
  { path: ROUTES.links, labelKey: 'nav.links', icon: 'linksPerUser', visibility: 'admin' },
  { path: ROUTES.users, labelKey: 'nav.users', icon: 'users', visibility: 'admin' },
];

export const isAdmin = (user: Pick<ShellUser, 'accessLevel'>) => user.accessLevel === 'ADMINISTRATOR';

export const hasEnrichment = (user: Pick<ShellUser, 'accessLevel' | 'permissions'>) =>
  isAdmin(user) || user.permissions.enriched.includes('all');

export function canSee(item: Pick<NavItem, 'visibility'>, user: Pick<ShellUser, 'accessLevel' | 'permissions'>) {
  if (item.visibility === 'all') return true;
  if (item.visibility === 'admin') return isAdmin(user);
  return hasEnrichment(user);
}

/** Routes a non-admin is sent away from (spec section 6); enrichment opens with permission 'all'. */
const ADMIN_ONLY_ROUTES: string[] = [ROUTES.users, ROUTES.enrichmentPerUser, ROUTES.links, ROUTES.campaignsPerUser];

export function canOpen(path: string, user: Pick<ShellUser, 'accessLevel' | 'permissions'>): boolean {
  if (isAdmin(user)) return true;
  if (path === ROUTES.enrichment || path.startsWith(`${ROUTES.enrichment}/`)) return hasEnrichment(user);
  return !ADMIN_ONLY_ROUTES.some((r) => path === r || path.startsWith(`${r}/`));
}

/** The active entry: `/` only on itself, the others on their own path and below it. */
export function isActive(itemPath: string, currentPath: string): boolean {
  if (itemPath === ROUTES.dashboard) return currentPath === '/';
  return currentPath === itemPath || currentPath.startsWith(`${itemPath}/`);
}

/** The create-campaign button is hidden on these pages (spec section 2, Header). */
const HIDE_CREATE_CAMPAIGN_ON: string[] = [ROUTES.lists, ROUTES.audios, ROUTES.rotatingLink, ROUTES.enrichment];
export const showsCreateCampaign = (path: string) => !HIDE_CREATE_CAMPAIGN_ON.includes(path);

/** The avatar shows at most 10 characters of the name, then an ellipsis. */
export function displayName(name: string, max = 10): string {
  const chars = [...name.trim()];
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : chars.join('');
}
