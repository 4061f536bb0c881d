CREATE TABLE "credit_balances" (
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"available" bigint DEFAULT 0 NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_balances_user_id_type_pk" PRIMARY KEY("user_id","type"),
	CONSTRAINT "credit_balances_non_negative" CHECK ("credit_balances"."available" >= 0 and "credit_balances"."reserved" >= 0),
	CONSTRAINT "credit_balances_type" CHECK ("credit_balances"."type" in ('BALANCE', 'SMSSHORT', 'SMSFLASH', 'WHATSAPP', 'URA', 'URAINTEGRATION', 'RCS', 'ENRICHED'))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"reserved_delta" bigint DEFAULT 0 NOT NULL,
	"reserved_after" bigint DEFAULT 0 NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"actor_user_id" uuid,
	"reason" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind" CHECK ("ledger_entries"."kind" in ('PURCHASE', 'TRANSFER_OUT', 'TRANSFER_IN', 'WELCOME_BONUS', 'ADMIN_ADJUSTMENT', 'REFUND', 'RESERVE', 'CAPTURE', 'RELEASE', 'ENRICHMENT_CHARGE')),
	CONSTRAINT "ledger_entries_type" CHECK ("ledger_entries"."type" in ('BALANCE', 'SMSSHORT', 'SMSFLASH', 'WHATSAPP', 'URA', 'URAINTEGRATION', 'RCS', 'ENRICHED')),
	CONSTRAINT "ledger_entries_after_non_negative" CHECK ("ledger_entries"."balance_after" >= 0 and "ledger_entries"."reserved_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_centavos" bigint NOT NULL,
	"method" text NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"external_id" text,
	"external_payment_id" text,
	"reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_centavos" > 0),
	CONSTRAINT "payments_method" CHECK ("payments"."method" in ('MANUAL', 'PIX', 'CARD')),
	CONSTRAINT "payments_provider" CHECK ("payments"."provider" in ('MANUAL', 'STRIPE')),
	CONSTRAINT "payments_status" CHECK ("payments"."status" in ('SUCCEEDED', 'FAILED', 'CANCELED', 'PENDING', 'REFUNDED'))
);
--> statement-breakpoint
ALTER TABLE "credit_balances" ADD CONSTRAINT "credit_balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_user_idempotency_key" ON "ledger_entries" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_id_idx" ON "ledger_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_reference_idx" ON "ledger_entries" USING btree ("user_id","reference_type","reference_id");--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_external_id_key" ON "payments" USING btree ("provider","external_id");