-- Kept counts per UTC day behind the totals of the Subscriptions list filtered by a start-date
-- range or a renewal range (current_period_end): a renewal range of a month matches half the
-- subscriptions, 500,000 index entries at 1M customers counted on every page
-- (server/db/list.ts, "Kept totals"). A range whose bounds are UTC midnights, as the console sends
-- them, is a sum of whole days.
--
-- list_day_counts holds the subscriptions of migration 027's list_filter_counts ('subscriptions'
-- rows: provider, status, cadence) split further by day:
--   dim 'start': the day of start_date;
--   dim 'renew': the day of current_period_end (none when it is null).
-- Rows that come to nothing are kept, as 027's are: they are bounded by days × keys, and removing
-- them at commit could deadlock two folds.
--
-- The Users list keeps no day counts: its start range matches through each member's
-- subscription, and the page of a range in the past sorted by the last update cannot be sampled
-- from the first rows of that order (bench/README.md, "PostgreSQL at 1M customers").
--
-- The subscription trigger of 027 carries the days in its pending rows and fires on a change of
-- either day too (a renewal); it locks and re-counts the members only when a key of theirs
-- (provider, status, cadence) changed, so 027's lock protocol is unchanged. The fold adds the
-- pending rows to both tables.
CREATE TABLE list_day_counts (
  dim       TEXT NOT NULL CHECK (dim IN ('start', 'renew')),
  day       DATE NOT NULL,
  provider  TEXT NOT NULL,
  status    TEXT NOT NULL,
  cadence   TEXT NOT NULL,
  n         BIGINT NOT NULL,
  -- A range of days of one dimension, the other keys filtered as it is read.
  PRIMARY KEY (dim, day, provider, status, cadence)
);

ALTER TABLE list_filter_counts_pending ADD COLUMN start_day DATE, ADD COLUMN renew_day DATE;

CREATE OR REPLACE FUNCTION list_filter_counts_subscription_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m RECORD;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO list_filter_counts_pending (list, provider, status, cadence, mg_status, dated, n, start_day, renew_day)
      VALUES ('subscriptions', OLD.provider, OLD.status, OLD.cadence, '', false, -1,
              (OLD.start_date AT TIME ZONE 'UTC')::date, (OLD.current_period_end AT TIME ZONE 'UTC')::date);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO list_filter_counts_pending (list, provider, status, cadence, mg_status, dated, n, start_day, renew_day)
      VALUES ('subscriptions', NEW.provider, NEW.status, NEW.cadence, '', false, 1,
              (NEW.start_date AT TIME ZONE 'UTC')::date, (NEW.current_period_end AT TIME ZONE 'UTC')::date);
  END IF;
  -- A new subscription has no member yet, and a referenced one cannot be deleted (foreign key).
  -- A change of the days alone moves no member count.
  IF TG_OP = 'UPDATE' AND (OLD.provider IS DISTINCT FROM NEW.provider
                           OR OLD.status IS DISTINCT FROM NEW.status
                           OR OLD.cadence IS DISTINCT FROM NEW.cadence) THEN
    FOR m IN SELECT mg_status, expires_at IS NOT NULL AS dated FROM members
              WHERE subscription_id = NEW.id FOR NO KEY UPDATE LOOP
      INSERT INTO list_filter_counts_pending (list, provider, status, cadence, mg_status, dated, n)
        VALUES ('users', OLD.provider, OLD.status, OLD.cadence, m.mg_status, m.dated, -1),
               ('users', NEW.provider, NEW.status, NEW.cadence, m.mg_status, m.dated, 1);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER subscriptions_list_filter_counts_update ON subscriptions;
CREATE TRIGGER subscriptions_list_filter_counts_update
  AFTER UPDATE OF provider, status, cadence, start_date, current_period_end ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.cadence IS DISTINCT FROM NEW.cadence
        OR (OLD.start_date AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.start_date AT TIME ZONE 'UTC')::date
        OR (OLD.current_period_end AT TIME ZONE 'UTC')::date
           IS DISTINCT FROM (NEW.current_period_end AT TIME ZONE 'UTC')::date)
  EXECUTE FUNCTION list_filter_counts_subscription_trigger();

-- Folds this transaction's pending deltas at commit: into list_filter_counts as before, then
-- into list_day_counts, each in key order, so two folds take the rows they share in the same
-- order. Keys whose deltas cancel out are not written: a renewal moves two day counts only.
CREATE OR REPLACE FUNCTION list_filter_counts_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The first of the commit's firings folds every row; the others stop here.
  IF NOT EXISTS (SELECT 1 FROM list_filter_counts_pending) THEN
    RETURN NULL;
  END IF;
  -- Every pending row is this transaction's own: another's are deleted before it commits.
  INSERT INTO list_filter_counts AS t (list, provider, status, cadence, mg_status, dated, n)
    SELECT list, provider, status, cadence, mg_status, dated, sum(n) FROM list_filter_counts_pending
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT list_filter_counts_pkey DO UPDATE SET n = t.n + EXCLUDED.n;
  INSERT INTO list_day_counts AS t (dim, day, provider, status, cadence, n)
    SELECT dim, day, provider, status, cadence, sum(n)
      FROM (SELECT 'start' AS dim, start_day AS day, provider, status, cadence, n
              FROM list_filter_counts_pending WHERE list = 'subscriptions' AND start_day IS NOT NULL
            UNION ALL
            SELECT 'renew', renew_day, provider, status, cadence, n
              FROM list_filter_counts_pending WHERE list = 'subscriptions' AND renew_day IS NOT NULL) d
     GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT list_day_counts_pkey DO UPDATE SET n = t.n + EXCLUDED.n;
  DELETE FROM list_filter_counts_pending;
  RETURN NULL;
END $$;

-- Recounts both lists into both tables (after a bulk load with triggers off, or a truncate).
CREATE OR REPLACE FUNCTION list_filter_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_filter_counts_pending;
  DELETE FROM list_filter_counts;
  DELETE FROM list_day_counts;
  INSERT INTO list_filter_counts (list, provider, status, cadence, mg_status, dated, n)
    SELECT 'subscriptions', provider, status, cadence, '', false, count(*) FROM subscriptions GROUP BY 2, 3, 4;
  INSERT INTO list_filter_counts (list, provider, status, cadence, mg_status, dated, n)
    SELECT 'users', COALESCE(s.provider, ''), COALESCE(s.status, ''), COALESCE(s.cadence, ''), m.mg_status,
           m.expires_at IS NOT NULL, count(*)
      FROM members m LEFT JOIN subscriptions s ON s.id = m.subscription_id GROUP BY 2, 3, 4, 5, 6;
  INSERT INTO list_day_counts (dim, day, provider, status, cadence, n)
    SELECT d.dim, d.day, s.provider, s.status, s.cadence, count(*)
      FROM subscriptions s
     CROSS JOIN LATERAL (VALUES ('start', (s.start_date AT TIME ZONE 'UTC')::date),
                                ('renew', (s.current_period_end AT TIME ZONE 'UTC')::date)) d (dim, day)
     WHERE d.day IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5;
END $$;

SELECT list_filter_counts_rebuild();
ANALYZE list_day_counts;
