/**
 * The audit trail as the composition root wires it: administrators' actions on users, campaigns
 * and links, each recorded in the transaction of the change. Its service is its repository.
 */
import type { DbHandle } from '../../platform/db/client.ts';
import { type AuditRepository, createAuditRepository } from './audit.repository.ts';

export type AuditModule = { service: AuditRepository };

export function createAuditModule(deps: { db: DbHandle }): AuditModule {
  return { service: createAuditRepository(deps.db.db) };
}
