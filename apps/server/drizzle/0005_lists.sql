CREATE TABLE "contact_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'importing' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"rows_processed" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"valid" integer DEFAULT 0 NOT NULL,
	"mobiles" integer DEFAULT 0 NOT NULL,
	"landlines" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_message" text,
	"file_name" text NOT NULL,
	"file_kind" text NOT NULL,
	"file_size" bigint NOT NULL,
	"upload_path" text,
	"mapping" jsonb,
	"source_headers" jsonb,
	"field_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"list_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"phone" text NOT NULL,
	"kind" text NOT NULL,
	"name" text,
	"fields" jsonb
);
--> statement-breakpoint
CREATE TABLE "list_invalid_rows" (
	"list_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"reason" text NOT NULL,
	"cells" jsonb NOT NULL,
	CONSTRAINT "list_invalid_rows_list_id_row_number_pk" PRIMARY KEY("list_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "opt_outs" (
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "opt_outs_user_id_phone_pk" PRIMARY KEY("user_id","phone")
);
--> statement-breakpoint
ALTER TABLE "contact_lists" ADD CONSTRAINT "contact_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_invalid_rows" ADD CONSTRAINT "list_invalid_rows_list_id_contact_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_lists_user_created_idx" ON "contact_lists" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_list_phone_key" ON "contacts" USING btree ("list_id","phone");--> statement-breakpoint
CREATE INDEX "opt_outs_user_created_idx" ON "opt_outs" USING btree ("user_id","created_at");