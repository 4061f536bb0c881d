CREATE TABLE "cnpj_base" (
	"id" smallint PRIMARY KEY NOT NULL,
	"reference_month" text NOT NULL,
	"establishments" integer NOT NULL,
	"companies" integer NOT NULL,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cnpj_base_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"folder" text NOT NULL,
	"reference_month" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"file" text,
	"rows" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cnpj_companies" (
	"basico" text PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cnpj_establishments" (
	"cnpj" text PRIMARY KEY NOT NULL,
	"basico" text NOT NULL,
	"trade_name" text,
	"situation" smallint NOT NULL,
	"cnae" text,
	"uf" text,
	"city" text,
	"phones" text[] NOT NULL,
	"email" text
);
--> statement-breakpoint
CREATE TABLE "enrichment_items" (
	"enrichment_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"cnpj" text NOT NULL,
	"found" boolean DEFAULT false NOT NULL,
	"company_name" text,
	"trade_name" text,
	"situation" smallint,
	"city" text,
	"uf" text,
	"cnae" text,
	"phones" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"email" text,
	CONSTRAINT "enrichment_items_enrichment_id_position_pk" PRIMARY KEY("enrichment_id","position")
);
--> statement-breakpoint
CREATE TABLE "enrichments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"only_active" boolean DEFAULT false NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"valid" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"found" integer DEFAULT 0 NOT NULL,
	"with_phone" integer DEFAULT 0 NOT NULL,
	"not_found" integer DEFAULT 0 NOT NULL,
	"credits_reserved" integer DEFAULT 0 NOT NULL,
	"credits_used" integer DEFAULT 0 NOT NULL,
	"credits_released" integer DEFAULT 0 NOT NULL,
	"invalid_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"base_month" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "enrichment_items" ADD CONSTRAINT "enrichment_items_enrichment_id_enrichments_id_fk" FOREIGN KEY ("enrichment_id") REFERENCES "public"."enrichments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrichments" ADD CONSTRAINT "enrichments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enrichments_user_created_idx" ON "enrichments" USING btree ("user_id","created_at");