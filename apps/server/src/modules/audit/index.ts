/**
 * The audit trail's public surface: the module as the composition root builds it, and the
 * repository that records an administrator's action.
 */
export { type AuditModule, createAuditModule } from './audit.module.ts';
export { type AuditChanges, type AuditEntry, type AuditRepository, createAuditRepository } from './audit.repository.ts';
