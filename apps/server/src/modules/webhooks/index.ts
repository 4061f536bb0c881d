/**
 * The webhooks module's public surface: the module as the composition root builds it, and the
 * `publish` the other modules call where their changes happen.
 */
export { type BalanceMoved, createWebhooksModule, type WebhooksModule } from './webhooks.module.ts';
export type { Publish, PublishItem, PublishMany } from './webhooks.publisher.ts';
export type { WebhooksService } from './webhooks.service.ts';
