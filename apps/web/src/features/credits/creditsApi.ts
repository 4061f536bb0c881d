import type {
  AdminAdjustmentInput,
  AdminAdjustmentResult,
  AdminPaymentInput,
  AdminPaymentResult,
  CheckoutOptions,
  CheckoutRequest,
  CheckoutResponse,
  CreditTransferInput,
  CreditTransferResult,
  DashboardBalance,
  LedgerEntryDto,
  Page,
  PaymentDto,
  PaymentStatusDto,
} from '@ecoa/shared';
import { api } from '../../platform/api';
import { idempotencyHeader } from '../../platform/idempotency';

export const creditsApi = {
  /** `GET /api/v1/dashboard/balance`: money in reais and every credit type. */
  balance: () => api.get<DashboardBalance>('/api/v1/dashboard/balance'),
  /** `POST /api/v1/credits/transfer` (bearer); `idempotencyKey`: one per submission (a retry applies once). */
  transfer: (input: CreditTransferInput, idempotencyKey: string) =>
    api.post<CreditTransferResult>('/api/v1/credits/transfer', input, { headers: idempotencyHeader(idempotencyKey) }),
  /** `POST /checkout` on the legacy host with the raw token (spec section 7). */
  checkout: (input: CheckoutRequest) =>
    api.post<CheckoutResponse>('/api/checkout', input, { host: 'legacy', auth: 'raw' }),
  /** `GET /api/v1/checkout/options`: whether "Pay with credit card" can work here (stripe, test, unavailable). */
  checkoutOptions: () => api.get<CheckoutOptions>('/api/v1/checkout/options'),
  /** `GET /api/v1/payments/:id`: where one of the user's own payments stands (404 for anyone else's). */
  paymentStatus: (id: string) => api.get<PaymentStatusDto>(`/api/v1/payments/${encodeURIComponent(id)}`),
  payments: (page = 1, pageSize = 10) => api.get<Page<PaymentDto>>('/api/v1/payments', { query: { page, pageSize } }),
  ledger: (page = 1, pageSize = 10) => api.get<Page<LedgerEntryDto>>('/api/v1/ledger', { query: { page, pageSize } }),
};

/** Administrators: one user's money (the user drawer). */
export const adminCreditsApi = {
  balance: (userId: string) => api.get<DashboardBalance>(`/api/v1/admin/users/${userId}/balance`),
  payments: (userId: string, page = 1, pageSize = 10) =>
    api.get<Page<PaymentDto>>(`/api/v1/admin/users/${userId}/payments`, { query: { page, pageSize } }),
  ledger: (userId: string, page = 1, pageSize = 10) =>
    api.get<Page<LedgerEntryDto>>(`/api/v1/admin/users/${userId}/ledger`, { query: { page, pageSize } }),
  /** Money operations take one `idempotencyKey` per form submission: a retried submission applies once. */
  recordPayment: (userId: string, input: AdminPaymentInput, idempotencyKey: string) =>
    api.post<AdminPaymentResult>(`/api/v1/admin/users/${userId}/payments`, input, {
      headers: idempotencyHeader(idempotencyKey),
    }),
  adjust: (userId: string, input: AdminAdjustmentInput, idempotencyKey: string) =>
    api.post<AdminAdjustmentResult>(`/api/v1/admin/users/${userId}/adjustments`, input, {
      headers: idempotencyHeader(idempotencyKey),
    }),
};
