/** The user administration module's public surface: its service. */
export { type AdminUsersService, createAdminUsersService } from './admin-users.service.ts';
