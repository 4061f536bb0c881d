-- Each dispatching process records when it last counted the live processes (viewed_at) and which
-- carrier accounts it sends through (carriers, one key per account): a carrier's rate is shared
-- among the processes on its account, and one that joined sends its share once every other has
-- counted it (issue 24, ADR 024).
ALTER TABLE "dispatch_workers" ADD COLUMN "viewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dispatch_workers" ADD COLUMN "carriers" text;
