/**
 * Money's query keys (the spec names the balance's: `dashboard-balance`). `payments` and `ledger`
 * start their pages' keys, so invalidating them refreshes every page.
 */
export const creditsKeys = {
  balance: ['dashboard-balance'] as const,
  payments: ['payments'] as const,
  paymentsPage: (page: number) => ['payments', page] as const,
  ledger: ['ledger'] as const,
  ledgerPage: (page: number) => ['ledger', page] as const,
  checkoutOptions: ['checkout-options'] as const,
  paymentStatus: (paymentId: string | null) => ['payment-status', paymentId] as const,
  /** An administrator's view of one user's money: every key below starts with it. */
  adminUserMoney: (userId: string) => ['admin-user-money', userId] as const,
  adminUserBalance: (userId: string) => ['admin-user-money', userId, 'balance'] as const,
  adminUserPayments: (userId: string, page: number) => ['admin-user-money', userId, 'payments', page] as const,
  adminUserLedger: (userId: string, page: number) => ['admin-user-money', userId, 'ledger', page] as const,
};
