/** The account module's public surface: the signed-in user's own settings service. */
export { type AccountService, createAccountService } from './account.service.ts';
