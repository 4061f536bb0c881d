/** What other features use of money: the balance and its refresh, the buy-credits modals, an administrator's view. */
export { AdminUserCredits } from './AdminUserCredits';
export { BalanceCard } from './BalanceCard';
export { CreditsProvider, useCredits } from './CreditsProvider';
export { creditsApi } from './creditsApi';
export { formatReais } from './format';
export { refreshMoney, useAccountBalance } from './money';
