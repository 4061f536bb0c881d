CREATE TABLE "campaign_timeline_tallies" (
	"campaign_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"sent" integer NOT NULL,
	"delivered" integer NOT NULL,
	"failed" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_tallies" (
	"user_id" uuid NOT NULL,
	"campaign_id" uuid,
	"channel" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"submitted" boolean NOT NULL,
	"reason" text,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "campaign_timeline_tallies_idx" ON "campaign_timeline_tallies" USING btree ("campaign_id","at");--> statement-breakpoint
CREATE INDEX "message_tallies_campaign_idx" ON "message_tallies" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "message_tallies_user_day_idx" ON "message_tallies" USING btree ("user_id","day");