/** The audit trail's public surface: the repository that records an administrator's action. */
export { type AuditChanges, type AuditEntry, type AuditRepository, createAuditRepository } from './audit.repository.ts';
