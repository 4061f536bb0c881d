/** What other features use of money: the balance and its refresh, the buy-credits modals, the money tables and calls. */
export { BalanceCard } from './BalanceCard';
export { CreditsProvider, useCredits } from './CreditsProvider';
export { adminCreditsApi, creditsApi } from './creditsApi';
export { formatReais } from './format';
export { formatMoney, LedgerTable, PaymentsTable } from './MoneyTables';
export { refreshMoney, useAccountBalance } from './money';
