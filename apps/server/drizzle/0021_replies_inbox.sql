DROP INDEX "inbound_user_received_idx";--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "channel" text DEFAULT 'sms' NOT NULL;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "message_id" uuid;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_user_campaign_idx" ON "inbound_messages" USING btree ("user_id","campaign_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_user_received_idx" ON "inbound_messages" USING btree ("user_id","received_at","id");--> statement-breakpoint
-- Hand-written: replies stored before this migration get the family of the provider they came from.
UPDATE "inbound_messages" SET "channel" = CASE "provider" WHEN 'whatsapp' THEN 'whatsapp' WHEN 'rcs' THEN 'rcs' ELSE 'sms' END;
