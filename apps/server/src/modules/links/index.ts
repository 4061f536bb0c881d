/**
 * The rotating links module's public surface: the module as the composition root builds it, and
 * its service.
 */
export type { ClickedLink, OnLinkClicks } from './links.clicks.ts';
export { createLinksModule, type LinksModule } from './links.module.ts';
export { createLinksService, type LinksService } from './links.service.ts';
