ALTER TABLE "campaigns" ADD COLUMN "links_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "links_disabled_reason" text;