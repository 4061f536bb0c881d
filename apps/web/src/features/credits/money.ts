import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useSession } from '../../platform/SessionProvider';
import { creditsApi, DASHBOARD_BALANCE_KEY, LEDGER_KEY, PAYMENTS_KEY } from './creditsApi';

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
    queryKey: DASHBOARD_BALANCE_KEY,
    queryFn: creditsApi.balance,
    enabled: user !== null,
    refetchOnWindowFocus: 'always',
  });
  return { balance, money: balance.data?.money ?? user?.balance.money ?? 0 };
}

/** The campaign wizard's estimate (its credits available and what is missing: "Faltam N créditos"). */
const CAMPAIGN_ESTIMATE_KEY = ['campaign-estimate'] as const;

/**
 * After anything that moved the user's money or credits (a conversion, a payment, a campaign
 * started or canceled, an enrichment): what shows them is read again — the balance, the
 * ledger, the payments, and an open wizard's estimate, so its shortfall alert and its Start
 * button follow at once.
 */
export function refreshMoney(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: DASHBOARD_BALANCE_KEY }),
    queryClient.invalidateQueries({ queryKey: PAYMENTS_KEY }),
    queryClient.invalidateQueries({ queryKey: LEDGER_KEY }),
    queryClient.invalidateQueries({ queryKey: CAMPAIGN_ESTIMATE_KEY }),
  ]);
}
