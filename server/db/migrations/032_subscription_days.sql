-- Subscriptions counted by the UTC day they start and the day they end, for the parts of the
-- access figures of GET /metrics/overview that migration 021 read from covering indexes, tens of
-- thousands of entries at 1M customers counted on every request:
-- - the starts and ends between the first of the range's month and the range's first midnight F
--   (55,000 starts): F is a midnight, so [month(F), F) is a sum of day rows, and only the ends at
--   exactly F are still read from the index;
-- - the cancelled subscriptions paid beyond now (32,000): the 'end' rows of the days after today,
--   plus today's ends after now and those that end at or before they start, from indexes.
--
-- subscription_days holds exactly the GROUP BY of subscription_months by day instead of month.
-- The pending deltas of 021 now carry their day too, and one fold at commit adds them to both.
CREATE TABLE subscription_days (
  kind      TEXT NOT NULL CHECK (kind IN ('start', 'end')),
  day       DATE NOT NULL,
  provider  TEXT NOT NULL,
  plan      TEXT NOT NULL,
  status    TEXT NOT NULL,
  source    TEXT NOT NULL,
  n         BIGINT NOT NULL,
  -- Day first: the figures read a range of days, of both kinds.
  PRIMARY KEY (day, kind, provider, plan, status, source)
);
-- Keys that came to nothing, found by each fold without a scan of either table.
CREATE INDEX subscription_days_zero_idx ON subscription_days (day) WHERE n = 0;
CREATE INDEX subscription_months_zero_idx ON subscription_months (month) WHERE n = 0;

ALTER TABLE subscription_months_pending ADD COLUMN day DATE;

CREATE OR REPLACE FUNCTION subscription_months_add(p_sign INTEGER, s subscriptions) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO subscription_months_pending (kind, month, day, provider, plan, status, source, n)
    VALUES ('start', date_trunc('month', s.start_date AT TIME ZONE 'UTC')::date,
            (s.start_date AT TIME ZONE 'UTC')::date, s.provider, s.plan, s.status,
            COALESCE(s.source, ''), p_sign);
  IF s.ends_at > s.start_date THEN
    INSERT INTO subscription_months_pending (kind, month, day, provider, plan, status, source, n)
      VALUES ('end', date_trunc('month', s.ends_at AT TIME ZONE 'UTC')::date,
              (s.ends_at AT TIME ZONE 'UTC')::date, s.provider, s.plan, s.status,
              COALESCE(s.source, ''), p_sign);
  END IF;
END $$;

-- Folds this transaction's pending deltas at commit into both roll-ups, one upsert per key each,
-- and drops the keys that came to nothing. The trigger fires once per pending row: the first
-- firing folds them all, the others find none and return.
CREATE OR REPLACE FUNCTION subscription_months_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM subscription_months_pending) THEN
    RETURN NULL;
  END IF;
  WITH d AS (DELETE FROM subscription_months_pending RETURNING *),
  months AS (
    INSERT INTO subscription_months AS m (kind, month, provider, plan, status, source, n)
      SELECT kind, month, provider, plan, status, source, sum(n)
        FROM d GROUP BY 1, 2, 3, 4, 5, 6
      HAVING sum(n) <> 0
      ON CONFLICT ON CONSTRAINT subscription_months_pkey DO UPDATE SET n = m.n + EXCLUDED.n)
  INSERT INTO subscription_days AS m (kind, day, provider, plan, status, source, n)
    SELECT kind, day, provider, plan, status, source, sum(n)
      FROM d GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(n) <> 0
    ON CONFLICT ON CONSTRAINT subscription_days_pkey DO UPDATE SET n = m.n + EXCLUDED.n;
  DELETE FROM subscription_months WHERE n = 0;
  DELETE FROM subscription_days WHERE n = 0;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION subscription_months_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE subscription_months, subscription_days;
  DELETE FROM subscription_months_pending;
  RETURN NULL;
END $$;

-- Recomputes both tables from the subscriptions (after a bulk load with triggers off).
CREATE OR REPLACE FUNCTION subscription_months_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM subscription_months_pending;
  DELETE FROM subscription_days;
  INSERT INTO subscription_days (kind, day, provider, plan, status, source, n)
    SELECT 'start', (start_date AT TIME ZONE 'UTC')::date, provider, plan, status,
           COALESCE(source, ''), count(*)
      FROM subscriptions GROUP BY 2, 3, 4, 5, 6
    UNION ALL
    SELECT 'end', (ends_at AT TIME ZONE 'UTC')::date, provider, plan, status, COALESCE(source, ''),
           count(*)
      FROM subscriptions WHERE ends_at > start_date GROUP BY 2, 3, 4, 5, 6;
  DELETE FROM subscription_months;
  INSERT INTO subscription_months (kind, month, provider, plan, status, source, n)
    SELECT kind, date_trunc('month', day)::date, provider, plan, status, source, sum(n)
      FROM subscription_days GROUP BY 1, 2, 3, 4, 5, 6;
END $$;

SELECT subscription_months_rebuild();
ANALYZE subscription_days;
