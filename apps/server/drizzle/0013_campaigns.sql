CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"list_ids" uuid[] NOT NULL,
	"content" jsonb NOT NULL,
	"window" jsonb NOT NULL,
	"max_rate" integer,
	"credit_type" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"excluded" jsonb,
	"credits_reserved" integer DEFAULT 0 NOT NULL,
	"credits_used" integer DEFAULT 0 NOT NULL,
	"credits_released" integer DEFAULT 0 NOT NULL,
	"status_reason" text,
	"status_detail" text,
	"provider_failures" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "dispatch_workers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"pid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "worker_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_user_created_idx" ON "campaigns" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_status_idx" ON "campaigns" USING btree ("status","scheduled_at");