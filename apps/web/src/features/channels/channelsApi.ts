import type { Message, ProviderHealthDto, TestSendRequest } from '@ecoa/shared';
import { api } from '../../platform/api';
import { idempotencyHeader } from '../../platform/idempotency';

export const channelsApi = {
  /**
   * `POST /api/v1/channels/test-send`: one message to one number, paid in credits of its channel;
   * `idempotencyKey`: one per submission (a retry after a lost answer sends once).
   */
  testSend: (input: TestSendRequest, idempotencyKey: string) =>
    api.post<{ id: string }>('/api/v1/channels/test-send', input, { headers: idempotencyHeader(idempotencyKey) }),
  /** `GET /api/v1/messages/:id`: the status and history of one message. */
  message: (id: string) => api.get<Message>(`/api/v1/messages/${id}`),
  /** `GET /api/v1/admin/channels`: each provider's health (administrators). */
  health: () => api.get<ProviderHealthDto[]>('/api/v1/admin/channels'),
};
