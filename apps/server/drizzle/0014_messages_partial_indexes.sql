DROP INDEX "messages_user_client_key";--> statement-breakpoint
DROP INDEX "messages_submitting_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "messages_user_client_key" ON "messages" USING btree ("user_id","client_key") WHERE client_key is not null;--> statement-breakpoint
CREATE INDEX "messages_submitting_idx" ON "messages" USING btree ("updated_at") WHERE status = 'submitting';