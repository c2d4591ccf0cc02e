-- The cancelled subscriptions still paid for, in GET /stats's current access and days left
-- (server/stats/aggregate.ts), from a roll-up per (UTC day of ends_at, currency, cadence) kept like
-- migration 023's stats_access_days, instead of reading each of them off
-- subscriptions_stats_cancelled_idx on every computation: 28,000 index entries at 1,000,000
-- customers (12 ms idle, 26 ms a call under the load test, where every change drops the cached
-- figures, so nearly every /stats request computes them; bench/README.md, "Load test").
--
-- A cancelled subscription grants access while ends_at > now. Those ending after now's UTC day
-- are the rows with end_day > that day whatever the instant within it, and their days left are
-- Σ (ends_at − now) = end_micros − n × now; those ending later on now's day are read from the
-- index (at most a day of ends). A subscription counts here while it is cancelled with an
-- ends_at; the rows come from the same row triggers as migration 023's (stats_access_add is
-- called for the old row with −1 and the new row with +1 on every change of status, currency,
-- cadence, amount_cents or ends_at) and are folded with them at commit.
-- Instances still running the code before this migration may be writing subscriptions: their
-- writes commit before the lock is granted (and are in the fill below) or wait for this migration
-- (and take the new triggers' path), so the roll-up starts exact. The rebuild at the end holds
-- the lock for about 5 s at 1,000,000 customers.
LOCK TABLE subscriptions IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE stats_cancelled_days (
  end_day       DATE NOT NULL,
  currency      TEXT NOT NULL,
  cadence       TEXT NOT NULL,
  n             BIGINT NOT NULL,
  amount_cents  BIGINT NOT NULL,
  -- Σ ends_at in microseconds since the epoch (exact).
  end_micros    NUMERIC NOT NULL,
  PRIMARY KEY (end_day, currency, cadence)
);

-- A second pending row, kind 'cancelled', for a cancelled subscription with an ends_at.
CREATE OR REPLACE FUNCTION stats_access_add(p_sign INTEGER, s subscriptions) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  e TIMESTAMPTZ := COALESCE(s.ends_at, s.current_period_end);
BEGIN
  INSERT INTO stats_pending (kind, status, currency, cadence, end_day, n, amount_cents, dated, end_micros)
    VALUES ('access', s.status, s.currency, s.cadence, (e AT TIME ZONE 'UTC')::date, p_sign,
            p_sign * COALESCE(s.amount_cents, 0), CASE WHEN e IS NULL THEN 0 ELSE p_sign END,
            COALESCE(p_sign * extract(epoch FROM e) * 1000000, 0));
  IF s.status = 'cancelled' AND s.ends_at IS NOT NULL THEN
    INSERT INTO stats_pending (kind, status, currency, cadence, end_day, n, amount_cents, dated, end_micros)
      VALUES ('cancelled', s.status, s.currency, s.cadence, (s.ends_at AT TIME ZONE 'UTC')::date, p_sign,
              p_sign * COALESCE(s.amount_cents, 0), 0, p_sign * extract(epoch FROM s.ends_at) * 1000000);
  END IF;
END $$;

-- Migration 023's fold, with the cancelled rows folded the same way (key order, nothing written
-- for a key whose deltas cancel out).
CREATE OR REPLACE FUNCTION stats_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The first of the commit's firings folds every row; the others stop here.
  IF NOT EXISTS (SELECT 1 FROM stats_pending) THEN
    RETURN NULL;
  END IF;
  WITH d AS (DELETE FROM stats_pending RETURNING *),
  g AS (
    INSERT INTO stats_access_groups AS t (status, currency, cadence, n, amount_cents, dated)
      SELECT status, currency, cadence, sum(n), sum(amount_cents), sum(dated)
        FROM d WHERE kind = 'access' GROUP BY 1, 2, 3
      HAVING sum(n) <> 0 OR sum(amount_cents) <> 0 OR sum(dated) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ON CONSTRAINT stats_access_groups_pkey
      DO UPDATE SET n = t.n + EXCLUDED.n, amount_cents = t.amount_cents + EXCLUDED.amount_cents,
                    dated = t.dated + EXCLUDED.dated
  ),
  days AS (
    INSERT INTO stats_access_days AS t (status, end_day, n, end_micros)
      SELECT status, end_day, sum(n), sum(end_micros)
        FROM d WHERE kind = 'access' AND end_day IS NOT NULL GROUP BY 1, 2
      HAVING sum(n) <> 0 OR sum(end_micros) <> 0 ORDER BY 1, 2
      ON CONFLICT ON CONSTRAINT stats_access_days_pkey
      DO UPDATE SET n = t.n + EXCLUDED.n, end_micros = t.end_micros + EXCLUDED.end_micros
  ),
  cancelled AS (
    INSERT INTO stats_cancelled_days AS t (end_day, currency, cadence, n, amount_cents, end_micros)
      SELECT end_day, currency, cadence, sum(n), sum(amount_cents), sum(end_micros)
        FROM d WHERE kind = 'cancelled' GROUP BY 1, 2, 3
      HAVING sum(n) <> 0 OR sum(amount_cents) <> 0 OR sum(end_micros) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ON CONSTRAINT stats_cancelled_days_pkey
      DO UPDATE SET n = t.n + EXCLUDED.n, amount_cents = t.amount_cents + EXCLUDED.amount_cents,
                    end_micros = t.end_micros + EXCLUDED.end_micros
  )
  INSERT INTO stats_totals AS t (name, n)
    SELECT 'subscribed_customers', sum(n) FROM d WHERE kind = 'customers' HAVING count(*) > 0
    ON CONFLICT (name) DO UPDATE SET n = t.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Migration 023's rebuild, the cancelled rows included.
CREATE OR REPLACE FUNCTION stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_pending;
  DELETE FROM stats_access_groups;
  DELETE FROM stats_access_days;
  DELETE FROM stats_cancelled_days;
  DELETE FROM stats_subscribed_customers;
  DELETE FROM stats_totals;
  INSERT INTO stats_access_groups (status, currency, cadence, n, amount_cents, dated)
    SELECT status, currency, cadence, count(*), COALESCE(sum(amount_cents), 0),
           count(COALESCE(ends_at, current_period_end))
      FROM subscriptions GROUP BY 1, 2, 3;
  INSERT INTO stats_access_days (status, end_day, n, end_micros)
    SELECT status, (COALESCE(ends_at, current_period_end) AT TIME ZONE 'UTC')::date, count(*),
           sum(extract(epoch FROM COALESCE(ends_at, current_period_end)) * 1000000)
      FROM subscriptions WHERE COALESCE(ends_at, current_period_end) IS NOT NULL GROUP BY 1, 2;
  INSERT INTO stats_cancelled_days (end_day, currency, cadence, n, amount_cents, end_micros)
    SELECT (ends_at AT TIME ZONE 'UTC')::date, currency, cadence, count(*), COALESCE(sum(amount_cents), 0),
           sum(extract(epoch FROM ends_at) * 1000000)
      FROM subscriptions WHERE status = 'cancelled' AND ends_at IS NOT NULL GROUP BY 1, 2, 3;
  INSERT INTO stats_subscribed_customers (customer_id, subscriptions)
    SELECT customer_id, count(*) FROM subscriptions GROUP BY 1;
  INSERT INTO stats_totals (name, n)
    SELECT 'subscribed_customers', count(*) FROM stats_subscribed_customers;
END $$;

-- Every roll-up of 023 recomputed with the new one, under the lock taken above.
SELECT stats_rebuild();
ANALYZE stats_cancelled_days;
