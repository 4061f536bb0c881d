/**
 * The opt-outs module's public surface: the module as the composition root builds it, and its
 * service (who must not be sent to).
 */
export { createOptOutsModule, type OptOutsModule } from './opt-outs.module.ts';
export { createOptOutsService, type OptOutsService } from './opt-outs.service.ts';
