/** The opt-outs module's public surface: its service (who must not be sent to). */
export { createOptOutsService, type OptOutsService } from './opt-outs.service.ts';
