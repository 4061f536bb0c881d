/**
 * The account module's public surface: the module as the composition root builds it, and its
 * settings service.
 */
export { type AccountModule, createAccountModule } from './account.module.ts';
export { type AccountService, createAccountService } from './account.service.ts';
