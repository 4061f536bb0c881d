import { OPT_OUT_SOURCES } from '@ecoa/shared';
import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ownedBy, timestamptz } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/** The account-wide "do not send" list: no campaign of the account sends to these numbers. */
export const optOuts = pgTable(
  'opt_outs',
  {
    userId: ownedBy(users, { onDelete: 'cascade' }),
    /** E.164, `+5511912345678`. */
    phone: text('phone').notNull(),
    source: text('source', { enum: OPT_OUT_SOURCES }).notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.phone] }), index('opt_outs_user_created_idx').on(t.userId, t.createdAt)],
);
