import { realApi, serverCall } from './real-api.test-support';

type Balance = { money: number; credits: Record<string, { available: number; reserved: number }> };
type LedgerEntry = { kind: string; type: string; amount: number; referenceId: string | null };

/** Sets a user's unit prices (reais) as an administrator would. */
export async function setPrices(userId: string, priceTable: Record<string, number>): Promise<void> {
  const res = await serverCall(realApi().adminToken, 'PATCH', `/api/v1/admin/users/${userId}`, { priceTable });
  if (res.status !== 200) throw new Error(`setting prices: ${res.status} ${JSON.stringify(res.body)}`);
}

/** An administrator records a PIX payment of `amount` reais for the user (money credited at once). */
export async function recordPix(userId: string, amount: number): Promise<void> {
  const res = await serverCall(realApi().adminToken, 'POST', `/api/v1/admin/users/${userId}/payments`, {
    amount,
    method: 'PIX',
    reason: `PIX de teste ${Date.now()}`,
  });
  if (res.status !== 201) throw new Error(`recording a payment: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The user's balances as the server holds them. */
export const balanceOf = async (token: string) =>
  (await serverCall<Balance>(token, 'GET', '/api/v1/dashboard/balance')).body;

/** The user's ledger entries, newest first. */
export const ledgerOf = async (token: string) =>
  (await serverCall<{ items: LedgerEntry[] }>(token, 'GET', '/api/v1/ledger?pageSize=100')).body.items;
