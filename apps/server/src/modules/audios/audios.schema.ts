import { AUDIO_CODECS, AUDIO_FORMATS } from '@ecoa/shared';
import { index, integer, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { ownedBy, randomId, timestamps } from '../../platform/db/columns.ts';
import { users } from '../users/index.ts';

/**
 * An audio a user uploaded for voice torpedo and URA campaigns. The bytes live in
 * `DATA_DIR/audios/<storage_name>` (audio-storage.ts); what the parsers read from them is kept
 * here, so listing never opens a file.
 */
export const audios = pgTable(
  'audios',
  {
    id: randomId(),
    userId: ownedBy(users, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    format: text('format', { enum: AUDIO_FORMATS }).notNull(),
    codec: text('codec', { enum: AUDIO_CODECS }).notNull(),
    /** Read from the file (never decoded), rounded to the millisecond. */
    durationMs: integer('duration_ms').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sampleRate: integer('sample_rate').notNull(),
    channels: smallint('channels').notNull(),
    /** `<32 random hex>.<format>` in `DATA_DIR/audios/`. */
    storageName: text('storage_name').notNull().unique(),
    ...timestamps(),
  },
  (t) => [index('audios_user_created_idx').on(t.userId, t.createdAt)],
);

export type AudioRow = typeof audios.$inferSelect;
