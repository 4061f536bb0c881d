/** The api-keys module's public surface: the module and its service (the guard's check, deactivation's revoke). */
export { type ApiKeysModule, createApiKeysModule } from './api-keys.module.ts';
export { apiKeys } from './api-keys.schema.ts';
export { type ApiKeysService, createApiKeysService, LAST_USED_EVERY_MS } from './api-keys.service.ts';
