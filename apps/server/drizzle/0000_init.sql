CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"fantasy_name" text,
	"full_name" text NOT NULL,
	"cnpj" text NOT NULL,
	"mobile_phone" text NOT NULL,
	"access_level" text DEFAULT 'USER' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"is_new_user" boolean DEFAULT true NOT NULL,
	"language" text DEFAULT 'pt' NOT NULL,
	"profile_image_path" text,
	"terms_accepted_at" timestamp with time zone,
	"price_sms_short" bigint DEFAULT 0 NOT NULL,
	"price_sms_flash" bigint DEFAULT 0 NOT NULL,
	"price_whatsapp" bigint DEFAULT 0 NOT NULL,
	"price_ura" bigint DEFAULT 0 NOT NULL,
	"price_rcs" bigint DEFAULT 0 NOT NULL,
	"price_ura_integration" bigint DEFAULT 0 NOT NULL,
	"price_enriched" bigint DEFAULT 0 NOT NULL,
	"permissions_enriched" text[] DEFAULT '{}'::text[] NOT NULL,
	"signup_utm" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");