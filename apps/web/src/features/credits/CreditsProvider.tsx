import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { BuyCreditsModal, type CreditsTab } from './BuyCreditsModal';
import { PaymentResult } from './PaymentResult';

type Credits = {
  /** Opens the buy-credits modal (the header's balance popover, the balance card, Shopping). */
  openBuyCredits: (tab?: CreditsTab) => void;
};

const CreditsContext = createContext<Credits | null>(null);

/**
 * Money on every authenticated page: the buy-credits modal (one instance) and the payment
 * result modals. Mount it inside the router and the session, around the shell:
 *
 *   <CreditsProvider><AuthenticatedLayout /></CreditsProvider>   // then: useCredits().openBuyCredits()
 */
export function CreditsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<{ tab: CreditsTab } | null>(null);
  const openBuyCredits = useCallback((tab: CreditsTab = 'buy') => setOpen({ tab }), []);
  const value = useMemo(() => ({ openBuyCredits }), [openBuyCredits]);
  return (
    <CreditsContext.Provider value={value}>
      {children}
      {open && <BuyCreditsModal key={open.tab} opened initialTab={open.tab} onClose={() => setOpen(null)} />}
      <PaymentResult onRetry={() => openBuyCredits('buy')} />
    </CreditsContext.Provider>
  );
}

export function useCredits(): Credits {
  const credits = useContext(CreditsContext);
  if (!credits) throw new Error('useCredits() outside <CreditsProvider>');
  return credits;
}
