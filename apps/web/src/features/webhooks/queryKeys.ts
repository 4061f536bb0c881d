/** The account's webhook endpoints and each one's delivery log. */
export const webhooksKeys = {
  all: ['webhooks'] as const,
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
};
