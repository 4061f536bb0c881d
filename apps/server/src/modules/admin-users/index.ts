/**
 * The user administration module's public surface: the module as the composition root builds it,
 * and its service.
 */
export { type AdminUsersModule, createAdminUsersModule } from './admin-users.module.ts';
export { type AdminUsersService, createAdminUsersService } from './admin-users.service.ts';
