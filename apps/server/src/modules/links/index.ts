/** The rotating links module's public surface: its service. */
export { createLinksService, type LinksService } from './links.service.ts';
