/**
 * Ecoa's typed API client: `openapi-fetch` over the types `openapi-typescript` generated from the
 * server's OpenAPI document (`npm run api:generate` writes src/schema.d.ts; a server test fails
 * when the committed file differs from a fresh generation).
 *
 *   const ecoa = createEcoaClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'ecoa_…' });
 *   const { data, error } = await ecoa.POST('/api/v1/messages', { body: { channel: 'sms_short', to, text } });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths, webhooks } from './schema.d.ts';

export type { components, paths, webhooks } from './schema.d.ts';
export type EcoaClient = Client<paths>;

/** The body Ecoa posts to a webhook endpoint for one event type (verify its signature first). */
export type EcoaWebhookEvent<T extends keyof webhooks> = NonNullable<
  webhooks[T]['post']
>['requestBody']['content']['application/json'];

export type EcoaClientOptions = Omit<ClientOptions, 'baseUrl'> & {
  /** Where Ecoa answers, e.g. `https://ecoa.example.com.br` (no trailing `/api`). */
  baseUrl: string;
  /** An API key (`ecoa_…`) or a signed-in session's token: sent as `Authorization: Bearer`. */
  apiKey?: string;
};

export function createEcoaClient({ baseUrl, apiKey, headers, ...rest }: EcoaClientOptions): EcoaClient {
  const auth = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  return createClient<paths>({ baseUrl, headers: { ...auth, ...(headers as Record<string, string>) }, ...rest });
}
