/**
 * The replies module's public surface: the module as the composition root builds it, and its
 * service (the inbox of incoming replies, `/api/v1/replies`).
 */
export { createRepliesModule, type RepliesModule } from './replies.module.ts';
export { createRepliesService, type RepliesService } from './replies.service.ts';
