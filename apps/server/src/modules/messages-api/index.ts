/** The sending API module's public surface: the module as the composition root builds it, and its service. */
export { createMessagesApiModule, type MessagesApiModule } from './messages-api.module.ts';
export type { MessagesApiService } from './messages-api.service.ts';
