-- The phone index in byte order ("C"): the same order for phones, cheaper comparisons on every
-- insert and status change (ADR 026). Only lastMessageTo reads it, comparing to_phone collate "C".
DROP INDEX "messages_to_created_idx";--> statement-breakpoint
CREATE INDEX "messages_to_created_idx" ON "messages" USING btree (("to_phone" collate "C"),"created_at");