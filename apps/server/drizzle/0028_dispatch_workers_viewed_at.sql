-- When each dispatching process last counted the live processes: a process that joined sends its
-- share of the carriers' rates once every other process has counted it (issue 24).
ALTER TABLE "dispatch_workers" ADD COLUMN "viewed_at" timestamp with time zone;
