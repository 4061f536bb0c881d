-- Custom SQL migration file, put your code below! --
-- Messages counted as rows move (issue 24), as message_status_counts is (migration 0020): each
-- statement on `messages` adds, per key it changed, one row with the difference to
-- `message_tallies` (campaign, user, channel, São Paulo day, status, submitted, reason) and to
-- `campaign_timeline_tallies` (a campaign's sends and outcomes per second); message-tallies.ts
-- sums them and folds them together. Statement-level, from the transition tables: a batch of 500
-- status changes costs one statement (the rows read once, two grouped inserts). The three
-- functions differ only in the rows they read (static SQL, so each keeps its plan). `ecoa.copying_tables` = on (db:move's COPY) skips them.
CREATE OR REPLACE FUNCTION message_tallies_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecoa.copying_tables', true) = 'on' THEN RETURN NULL; END IF;
  WITH moved AS (
      SELECT user_id, campaign_id, channel, created_at, status, submitted_at, finished_at, reason, 1 AS d FROM new_rows),
  tallied AS (
    INSERT INTO message_tallies (user_id, campaign_id, channel, day, status, submitted, reason, n)
    SELECT user_id, campaign_id, channel, (created_at AT TIME ZONE 'America/Sao_Paulo')::date, status,
           submitted_at IS NOT NULL, reason, sum(d)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(d) <> 0),
  points AS (
    SELECT campaign_id, date_bin('1 second', submitted_at, '2000-01-01T00:00:00Z') AS at, d AS sent, 0 AS delivered, 0 AS failed
      FROM moved WHERE campaign_id IS NOT NULL AND submitted_at IS NOT NULL
    UNION ALL
    SELECT campaign_id, date_bin('1 second', finished_at, '2000-01-01T00:00:00Z'),
           0, CASE WHEN status = 'delivered' THEN d ELSE 0 END, CASE WHEN status = 'delivered' THEN 0 ELSE d END
      FROM moved WHERE campaign_id IS NOT NULL AND finished_at IS NOT NULL AND status IN ('delivered', 'failed', 'expired'))
  INSERT INTO campaign_timeline_tallies (campaign_id, at, sent, delivered, failed)
  SELECT campaign_id, at, sum(sent), sum(delivered), sum(failed) FROM points
   GROUP BY 1, 2 HAVING sum(sent) <> 0 OR sum(delivered) <> 0 OR sum(failed) <> 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_tallies_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecoa.copying_tables', true) = 'on' THEN RETURN NULL; END IF;
  WITH moved AS (
      SELECT user_id, campaign_id, channel, created_at, status, submitted_at, finished_at, reason, 1 AS d FROM new_rows
      UNION ALL
      SELECT user_id, campaign_id, channel, created_at, status, submitted_at, finished_at, reason, -1 AS d FROM old_rows),
  tallied AS (
    INSERT INTO message_tallies (user_id, campaign_id, channel, day, status, submitted, reason, n)
    SELECT user_id, campaign_id, channel, (created_at AT TIME ZONE 'America/Sao_Paulo')::date, status,
           submitted_at IS NOT NULL, reason, sum(d)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(d) <> 0),
  points AS (
    SELECT campaign_id, date_bin('1 second', submitted_at, '2000-01-01T00:00:00Z') AS at, d AS sent, 0 AS delivered, 0 AS failed
      FROM moved WHERE campaign_id IS NOT NULL AND submitted_at IS NOT NULL
    UNION ALL
    SELECT campaign_id, date_bin('1 second', finished_at, '2000-01-01T00:00:00Z'),
           0, CASE WHEN status = 'delivered' THEN d ELSE 0 END, CASE WHEN status = 'delivered' THEN 0 ELSE d END
      FROM moved WHERE campaign_id IS NOT NULL AND finished_at IS NOT NULL AND status IN ('delivered', 'failed', 'expired'))
  INSERT INTO campaign_timeline_tallies (campaign_id, at, sent, delivered, failed)
  SELECT campaign_id, at, sum(sent), sum(delivered), sum(failed) FROM points
   GROUP BY 1, 2 HAVING sum(sent) <> 0 OR sum(delivered) <> 0 OR sum(failed) <> 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_tallies_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ecoa.copying_tables', true) = 'on' THEN RETURN NULL; END IF;
  WITH moved AS (
      SELECT user_id, campaign_id, channel, created_at, status, submitted_at, finished_at, reason, -1 AS d FROM old_rows),
  tallied AS (
    INSERT INTO message_tallies (user_id, campaign_id, channel, day, status, submitted, reason, n)
    SELECT user_id, campaign_id, channel, (created_at AT TIME ZONE 'America/Sao_Paulo')::date, status,
           submitted_at IS NOT NULL, reason, sum(d)
      FROM moved GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(d) <> 0),
  points AS (
    SELECT campaign_id, date_bin('1 second', submitted_at, '2000-01-01T00:00:00Z') AS at, d AS sent, 0 AS delivered, 0 AS failed
      FROM moved WHERE campaign_id IS NOT NULL AND submitted_at IS NOT NULL
    UNION ALL
    SELECT campaign_id, date_bin('1 second', finished_at, '2000-01-01T00:00:00Z'),
           0, CASE WHEN status = 'delivered' THEN d ELSE 0 END, CASE WHEN status = 'delivered' THEN 0 ELSE d END
      FROM moved WHERE campaign_id IS NOT NULL AND finished_at IS NOT NULL AND status IN ('delivered', 'failed', 'expired'))
  INSERT INTO campaign_timeline_tallies (campaign_id, at, sent, delivered, failed)
  SELECT campaign_id, at, sum(sent), sum(delivered), sum(failed) FROM points
   GROUP BY 1, 2 HAVING sum(sent) <> 0 OR sum(delivered) <> 0 OR sum(failed) <> 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_tallies_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM message_tallies;
  DELETE FROM campaign_timeline_tallies;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER message_tallies_inserted AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_tallies_inserted();
--> statement-breakpoint
CREATE TRIGGER message_tallies_updated AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_tallies_updated();
--> statement-breakpoint
CREATE TRIGGER message_tallies_deleted AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_tallies_deleted();
--> statement-breakpoint
CREATE TRIGGER message_tallies_truncated AFTER TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION message_tallies_truncated();
--> statement-breakpoint
-- The messages already there, counted once.
INSERT INTO message_tallies (user_id, campaign_id, channel, day, status, submitted, reason, n)
  SELECT user_id, campaign_id, channel, (created_at AT TIME ZONE 'America/Sao_Paulo')::date, status,
         submitted_at IS NOT NULL, reason, count(*)
    FROM messages GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO campaign_timeline_tallies (campaign_id, at, sent, delivered, failed)
  SELECT campaign_id, at, sum(sent), sum(delivered), sum(failed) FROM (
    SELECT campaign_id, date_bin('1 second', submitted_at, '2000-01-01T00:00:00Z') AS at, 1 AS sent, 0 AS delivered, 0 AS failed
      FROM messages WHERE campaign_id IS NOT NULL AND submitted_at IS NOT NULL
    UNION ALL
    SELECT campaign_id, date_bin('1 second', finished_at, '2000-01-01T00:00:00Z'),
           0, (status = 'delivered')::int, (status <> 'delivered')::int
      FROM messages WHERE campaign_id IS NOT NULL AND finished_at IS NOT NULL AND status IN ('delivered', 'failed', 'expired')) points
  GROUP BY 1, 2;
