CREATE TABLE "link_clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"link_id" uuid,
	"message_id" uuid,
	"campaign_id" uuid,
	"target_id" uuid,
	"at" timestamp with time zone NOT NULL,
	"referrer" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_term" text,
	"utm_content" text,
	"device" text NOT NULL,
	"country" text,
	"visitor" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_targets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"phone" text,
	"url" text,
	"label" text,
	"message" text,
	"weight" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"hours" jsonb,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rotating_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"mode" text NOT NULL,
	"sticky" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"fallback" jsonb,
	"pixels" jsonb,
	"turn_sequence" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "short_code" text;--> statement-breakpoint
ALTER TABLE "link_targets" ADD CONSTRAINT "link_targets_link_id_rotating_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."rotating_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rotating_links" ADD CONSTRAINT "rotating_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "link_clicks_link_at_idx" ON "link_clicks" USING btree ("link_id","at");--> statement-breakpoint
CREATE INDEX "link_clicks_campaign_idx" ON "link_clicks" USING btree ("campaign_id","message_id") WHERE campaign_id is not null;--> statement-breakpoint
CREATE INDEX "link_targets_link_idx" ON "link_targets" USING btree ("link_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "rotating_links_slug_key" ON "rotating_links" USING btree ("slug") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "rotating_links_user_idx" ON "rotating_links" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_short_code_key" ON "messages" USING btree ("short_code") WHERE short_code is not null;