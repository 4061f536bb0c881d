ALTER TABLE "payments" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "success_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "cancel_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_centavos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refund_shortfall_centavos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
CREATE INDEX "payments_external_payment_id_idx" ON "payments" USING btree ("external_payment_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunds_non_negative" CHECK ("payments"."refunded_centavos" >= 0 and "payments"."refund_shortfall_centavos" >= 0);