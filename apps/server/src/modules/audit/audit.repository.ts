import { and, desc, eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/index.ts';
import { auditLog } from './audit.schema.ts';

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;
export type AuditEntry = {
  id: string;
  actor: { id: string; name: string; email: string };
  action: string;
  changes: AuditChanges;
  createdAt: Date;
};

export function createAuditRepository(db: Database) {
  return {
    async record(
      entry: { actorId: string; subjectType: string; subjectId: string; action: string; changes: AuditChanges },
      tx: DbOrTx = db,
    ): Promise<void> {
      await tx.insert(auditLog).values(entry);
    },

    async listFor(subjectType: string, subjectId: string, limit = 50, tx: DbOrTx = db): Promise<AuditEntry[]> {
      const rows = await tx
        .select({
          id: auditLog.id,
          action: auditLog.action,
          changes: auditLog.changes,
          createdAt: auditLog.createdAt,
          actorId: users.id,
          actorName: users.fullName,
          actorEmail: users.email,
        })
        .from(auditLog)
        .innerJoin(users, eq(users.id, auditLog.actorId))
        .where(and(eq(auditLog.subjectType, subjectType), eq(auditLog.subjectId, subjectId)))
        .orderBy(desc(auditLog.createdAt))
        .limit(limit);
      return rows.map((r) => ({
        id: r.id,
        action: r.action,
        changes: r.changes,
        createdAt: r.createdAt,
        actor: { id: r.actorId, name: r.actorName, email: r.actorEmail },
      }));
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
