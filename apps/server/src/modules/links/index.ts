/**
 * The rotating links module's public surface: the module as the composition root builds it, and
 * its service.
 */
export { createLinksModule, type LinksModule } from './links.module.ts';
export { createLinksService, type LinksService } from './links.service.ts';
