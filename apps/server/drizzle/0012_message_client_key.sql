ALTER TABLE "messages" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_user_client_key" ON "messages" USING btree ("user_id","client_key");--> statement-breakpoint
CREATE INDEX "messages_submitting_idx" ON "messages" USING btree ("status","updated_at");