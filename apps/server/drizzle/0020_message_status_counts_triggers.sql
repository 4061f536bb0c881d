-- Custom SQL migration file, put your code below! --
-- Messages per channel and status, kept as rows move (issue 20): each statement on `messages`
-- adds, per (channel, status) it changed, one row with the difference; the metrics sum them
-- (message-counts.ts folds them together). Statement-level, from the transition tables, so a
-- batch of 500 status changes costs one grouped insert, not 500. `ecoa.copying_tables` = on
-- (db:move's COPY, which also copies `message_status_counts` itself) skips the counting.
CREATE OR REPLACE FUNCTION message_status_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecoa.copying_tables', true) = 'on' THEN RETURN NULL; END IF;
  INSERT INTO message_status_counts (channel, status, n)
    SELECT channel, status, count(*) FROM new_rows GROUP BY channel, status;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_status_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecoa.copying_tables', true) = 'on' THEN RETURN NULL; END IF;
  INSERT INTO message_status_counts (channel, status, n)
    SELECT channel, status, sum(d) FROM (
      SELECT channel, status, 1 AS d FROM new_rows
      UNION ALL
      SELECT channel, status, -1 AS d FROM old_rows
    ) moved GROUP BY channel, status HAVING sum(d) <> 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_status_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecoa.copying_tables', true) = 'on' THEN RETURN NULL; END IF;
  INSERT INTO message_status_counts (channel, status, n)
    SELECT channel, status, -count(*) FROM old_rows GROUP BY channel, status;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_status_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_status_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER message_status_counts_inserted AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_status_counts_inserted();
--> statement-breakpoint
CREATE TRIGGER message_status_counts_updated AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_status_counts_updated();
--> statement-breakpoint
CREATE TRIGGER message_status_counts_deleted AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_status_counts_deleted();
--> statement-breakpoint
CREATE TRIGGER message_status_counts_truncated AFTER TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION message_status_counts_truncated();
--> statement-breakpoint
-- The messages already there, counted once (the last full count).
INSERT INTO message_status_counts (channel, status, n)
  SELECT channel, status, count(*) FROM messages GROUP BY channel, status;
