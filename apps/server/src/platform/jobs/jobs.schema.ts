import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * How often each job was started and how often it ended (returned or threw). A start without an
 * end means the process (or its machine) died while working on it. A job that did that twice
 * is quarantined instead of being handed to a third process: no input may crash-loop the server.
 * Rows go away when their job ends for good.
 */
export const jobRuns = pgTable('job_runs', {
  jobId: uuid('job_id').primaryKey(),
  queue: text('queue').notNull(),
  starts: integer('starts').notNull().default(0),
  ends: integer('ends').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
