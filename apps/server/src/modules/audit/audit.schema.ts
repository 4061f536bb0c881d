import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { randomId, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/** Append-only record of administrative changes: who, when, what (field → {from, to}). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: randomId(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    /** What was changed: e.g. 'user'. */
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_subject_idx').on(t.subjectType, t.subjectId, t.createdAt)],
);
