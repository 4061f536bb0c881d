/** Webhooks to the customer: the settings page's card. */
export { WebhooksCard } from './WebhooksCard';
