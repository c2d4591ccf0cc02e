-- A narrower metrics roll-up for overviews filtered by source (a UTM source: google,
-- newsletter, …), as migration 007's are for plan and status: metrics_daily splits a source's
-- day by plan and status too, so a year of one source read 27,000 rows at 1M customers
-- (bench/README.md, "PostgreSQL at 1M customers").
-- - metrics_daily_source: day, type, provider, source, currency (overviews filtered by source,
--   with or without a provider)
-- Kept like the others: folded at commit from metrics_pending (migration 020), emptied by the
-- truncate trigger, recomputed by metrics_rollup_rebuild(); it holds exactly the GROUP BY of
-- metrics_daily over its key.

CREATE TABLE metrics_daily_source (
  day           DATE NOT NULL,
  type          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  source        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, type, provider, source, currency)
);
-- The overview compares lower-cased sources over a day range (the expression of its filter).
CREATE INDEX metrics_daily_source_source_idx ON metrics_daily_source (lower(COALESCE(source, '')), day);

CREATE OR REPLACE FUNCTION metrics_rollup_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (DELETE FROM metrics_pending RETURNING *),
  a AS (
    INSERT INTO metrics_daily AS m (day, type, provider, plan, source, status, currency, events, amount_cents)
      SELECT day, type, provider, plan, source, status, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ON CONSTRAINT metrics_daily_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  ),
  b AS (
    INSERT INTO metrics_daily_provider AS m (day, type, provider, currency, events, amount_cents)
      SELECT day, type, provider, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4
      ON CONFLICT ON CONSTRAINT metrics_daily_provider_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  ),
  c AS (
    INSERT INTO metrics_daily_plan AS m (day, type, provider, plan, currency, events, amount_cents)
      SELECT day, type, provider, plan, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT ON CONSTRAINT metrics_daily_plan_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  ),
  e AS (
    INSERT INTO metrics_daily_source AS m (day, type, provider, source, currency, events, amount_cents)
      SELECT day, type, provider, source, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT ON CONSTRAINT metrics_daily_source_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  )
  INSERT INTO metrics_daily_status AS m (day, type, provider, status, currency, events, amount_cents)
    SELECT day, type, provider, status, currency, sum(events), sum(amount_cents)
      FROM d GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT metrics_daily_status_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION metrics_rollup_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE metrics_daily, metrics_daily_provider, metrics_daily_plan, metrics_daily_status, metrics_daily_source;
  DELETE FROM metrics_pending;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION metrics_rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM metrics_pending;
  DELETE FROM metrics_daily;
  DELETE FROM metrics_daily_provider;
  DELETE FROM metrics_daily_plan;
  DELETE FROM metrics_daily_status;
  DELETE FROM metrics_daily_source;
  INSERT INTO metrics_daily
    SELECT (e.occurred_at AT TIME ZONE 'UTC')::date, e.type, s.provider, s.plan, COALESCE(s.source, ''), s.status,
           COALESCE(e.currency, s.currency), count(*), COALESCE(sum(e.amount_cents), 0)
      FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
     WHERE e.type IN ('new', 'renewal', 'cancellation')
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO metrics_daily_provider
    SELECT day, type, provider, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4;
  INSERT INTO metrics_daily_plan
    SELECT day, type, provider, plan, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO metrics_daily_status
    SELECT day, type, provider, status, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO metrics_daily_source
    SELECT day, type, provider, source, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
END $$;

-- The events already stored.
INSERT INTO metrics_daily_source
  SELECT day, type, provider, source, currency, sum(events), sum(amount_cents)
    FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
ANALYZE metrics_daily_source;
