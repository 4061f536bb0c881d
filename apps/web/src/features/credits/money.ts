import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useSession } from '../../platform/SessionProvider';
import { campaignsKeys } from '../campaigns/queryKeys';
import { creditsApi } from './creditsApi';
import { creditsKeys } from './queryKeys';

/**
 * The one source of the signed-in user's money on the web: `GET /api/v1/dashboard/balance`
 * (query key `dashboard-balance`), for the header, the conversion rows, the buy-credits modal,
 * the balance cards and the dashboard. It is read again whenever the tab comes back (focus or
 * visibility: a PIX recorded by an administrator, a card paid in another tab) and after every
 * payment or conversion (`refreshMoney`). Until its first answer, the money `GET /api/me` gave
 * at sign-in stands in.
 */
export function useAccountBalance() {
  const { user } = useSession();
  const balance = useQuery({
    queryKey: creditsKeys.balance,
    queryFn: creditsApi.balance,
    enabled: user !== null,
    refetchOnWindowFocus: 'always',
  });
  return { balance, money: balance.data?.money ?? user?.balance.money ?? 0 };
}

/**
 * After anything that moved the user's money or credits (a conversion, a payment, a campaign
 * started or canceled, an enrichment): what shows them is read again — the balance, the
 * ledger, the payments, and an open wizard's estimate, so its shortfall alert and its Start
 * button follow at once.
 */
export function refreshMoney(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: creditsKeys.balance }),
    queryClient.invalidateQueries({ queryKey: creditsKeys.payments }),
    queryClient.invalidateQueries({ queryKey: creditsKeys.ledger }),
    queryClient.invalidateQueries({ queryKey: campaignsKeys.estimates }),
  ]);
}
