/** For the sending API's tests: its routes as one user, and the balances they move. */
import type { SendBatchRequest, SendMessageRequest } from '@ecoa/shared';
import { injectAs } from '../../../test/http.test-support.ts';
import type { RunningServer } from '../../server.ts';
import { ALWAYS } from '../campaigns/campaigns.test-support.ts';

export function messagesApi(server: RunningServer, token: string) {
  const headers = (key?: string) => (key ? { 'idempotency-key': key } : {});
  return {
    /** `POST /api/v1/messages` (every day, all day unless the body says otherwise). */
    send: (body: Partial<SendMessageRequest>, key?: string) =>
      injectAs(server, token, {
        method: 'POST',
        url: '/api/v1/messages',
        headers: headers(key),
        payload: { window: ALWAYS, ...body },
      }),
    batch: (body: Partial<SendBatchRequest>, key?: string) =>
      injectAs(server, token, {
        method: 'POST',
        url: '/api/v1/messages/batch',
        headers: headers(key),
        payload: { window: ALWAYS, ...body },
      }),
    list: (query: string) => injectAs(server, token, { method: 'GET', url: `/api/v1/messages?${query}` }),
    cancel: (id: string) => injectAs(server, token, { method: 'DELETE', url: `/api/v1/messages/${id}` }),
  };
}

/** The user's SMS credits: available, reserved and their sum (what a cancel must leave whole). */
export async function smsCredits(server: RunningServer, userId: string) {
  const { available, reserved } = (await server.modules.ledger.getBalances(userId)).SMSSHORT;
  return { available, reserved, total: available + reserved };
}
