CREATE TABLE "audios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"codec" text NOT NULL,
	"duration_ms" integer NOT NULL,
	"size_bytes" integer NOT NULL,
	"sample_rate" integer NOT NULL,
	"channels" smallint NOT NULL,
	"storage_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audios_storage_name_unique" UNIQUE("storage_name")
);
--> statement-breakpoint
ALTER TABLE "audios" ADD CONSTRAINT "audios_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audios_user_created_idx" ON "audios" USING btree ("user_id","created_at");