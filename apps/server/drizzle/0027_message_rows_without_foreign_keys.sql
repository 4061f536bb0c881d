-- The rows written for every message sent lose their foreign keys (ADR 023): each one fired a
-- per-row trigger and a lookup on every insert (one per message, two events and a carrier id per
-- message). Users are never deleted; children are written only for messages read in the same
-- transaction. What the cascade did, a statement-level trigger
-- does: deleting messages deletes their history and carrier ids (one statement, not a row each).
ALTER TABLE "message_events" DROP CONSTRAINT "message_events_message_id_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "provider_message_ids" DROP CONSTRAINT "provider_message_ids_message_id_messages_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_children_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_events WHERE message_id IN (SELECT id FROM old_rows);
  DELETE FROM provider_message_ids WHERE message_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER message_children_deleted AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_children_deleted();
