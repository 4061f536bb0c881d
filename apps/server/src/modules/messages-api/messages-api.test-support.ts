/** For the sending API's tests: its routes as one user, through the typed client, and the balances they move. */
import type { paths } from '@ecoa/api-client';
import type { SendBatchRequest, SendMessageRequest } from '@ecoa/shared';
import { answered, apiClient } from '../../../test/api-client.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { ALWAYS } from '../campaigns/campaigns.test-support.ts';

/** The sending API as the holder of `token`, on a listening server (startCampaignsServer's). */
export function messagesApi(server: RunningServer, token: string) {
  const ecoa = apiClient(server, token);
  const headers = (key?: string) => (key ? { 'idempotency-key': key } : {});
  return {
    /** `POST /api/v1/messages` (every day, all day unless the body says otherwise). */
    send: (body: Partial<SendMessageRequest>, key?: string) =>
      answered(
        ecoa.POST('/api/v1/messages', {
          body: { window: ALWAYS, ...body } as SendMessageRequest,
          headers: headers(key),
        }),
      ),
    batch: (body: Partial<SendBatchRequest>, key?: string) =>
      answered(
        ecoa.POST('/api/v1/messages/batch', {
          body: { window: ALWAYS, ...body } as SendBatchRequest,
          headers: headers(key),
        }),
      ),
    list: (query: NonNullable<paths['/api/v1/messages']['get']['parameters']['query']>) =>
      answered(ecoa.GET('/api/v1/messages', { params: { query } })),
    cancel: (id: string) => answered(ecoa.DELETE('/api/v1/messages/{id}', { params: { path: { id } } })),
  };
}

/** The user's SMS credits: available, reserved and their sum (what a cancel must leave whole). */
export async function smsCredits(server: RunningServer, userId: string) {
  const { available, reserved } = (await server.modules.ledger.getBalances(userId)).SMSSHORT;
  return { available, reserved, total: available + reserved };
}
