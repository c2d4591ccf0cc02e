-- Narrower metrics roll-ups for filtered overviews, so that GET /metrics/overview over a year at
-- 100k customers reads a small slice whatever the filter.
--
-- metrics_daily (005) is keyed by day, type, provider, plan, source, status and currency, so a
-- plan-only or status-only overview reads every source × status (or plan × source) split of its
-- slice. These two tables drop the keys those filters do not need:
-- - metrics_daily_plan:   day, type, provider, plan, currency   (overviews filtered by plan only)
-- - metrics_daily_status: day, type, provider, status, currency (overviews filtered by status only)
-- They are maintained exactly like metrics_daily and metrics_daily_provider: metrics_rollup_add()
-- (called by the subscription_events trigger and by the subscription key-change trigger of 005)
-- now also writes them, the truncate trigger empties them, and metrics_rollup_rebuild() recomputes
-- them. Each holds exactly the GROUP BY of metrics_daily over its own key.
-- Last, an index over subscriptions by lower(plan) for the access counts of a plan filter.

CREATE TABLE metrics_daily_plan (
  day           DATE NOT NULL,
  type          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  plan          TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, type, provider, plan, currency)
);
CREATE TABLE metrics_daily_status (
  day           DATE NOT NULL,
  type          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  status        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, type, provider, status, currency)
);
-- The overview compares lower-cased plans and a set of statuses over a day range.
CREATE INDEX metrics_daily_plan_plan_idx ON metrics_daily_plan (lower(plan), day);
CREATE INDEX metrics_daily_status_status_idx ON metrics_daily_status (status, day);

-- Adds p_sign × (one event of p_type at p_at, amount p_amount) under the given subscription key,
-- in every roll-up.
CREATE OR REPLACE FUNCTION metrics_rollup_add(p_sign INTEGER, p_at TIMESTAMPTZ, p_type TEXT, p_provider TEXT, p_plan TEXT,
                                              p_source TEXT, p_status TEXT, p_currency TEXT, p_amount INTEGER)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d DATE := (p_at AT TIME ZONE 'UTC')::date;
BEGIN
  IF p_type NOT IN ('new', 'renewal', 'cancellation') THEN
    RETURN;
  END IF;
  INSERT INTO metrics_daily AS m (day, type, provider, plan, source, status, currency, events, amount_cents)
    VALUES (d, p_type, p_provider, p_plan, COALESCE(p_source, ''), p_status, p_currency, p_sign, p_sign * COALESCE(p_amount, 0))
    ON CONFLICT ON CONSTRAINT metrics_daily_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  INSERT INTO metrics_daily_provider AS m (day, type, provider, currency, events, amount_cents)
    VALUES (d, p_type, p_provider, p_currency, p_sign, p_sign * COALESCE(p_amount, 0))
    ON CONFLICT ON CONSTRAINT metrics_daily_provider_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  INSERT INTO metrics_daily_plan AS m (day, type, provider, plan, currency, events, amount_cents)
    VALUES (d, p_type, p_provider, p_plan, p_currency, p_sign, p_sign * COALESCE(p_amount, 0))
    ON CONFLICT ON CONSTRAINT metrics_daily_plan_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  INSERT INTO metrics_daily_status AS m (day, type, provider, status, currency, events, amount_cents)
    VALUES (d, p_type, p_provider, p_status, p_currency, p_sign, p_sign * COALESCE(p_amount, 0))
    ON CONFLICT ON CONSTRAINT metrics_daily_status_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
END $$;

CREATE OR REPLACE FUNCTION metrics_rollup_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE metrics_daily, metrics_daily_provider, metrics_daily_plan, metrics_daily_status;
  RETURN NULL;
END $$;

-- Recomputes every roll-up from subscription_events (after a bulk load with triggers off).
CREATE OR REPLACE FUNCTION metrics_rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM metrics_daily;
  DELETE FROM metrics_daily_provider;
  DELETE FROM metrics_daily_plan;
  DELETE FROM metrics_daily_status;
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
END $$;

-- Fill the new tables from metrics_daily, which 005's triggers have kept exact.
INSERT INTO metrics_daily_plan
  SELECT day, type, provider, plan, currency, sum(events), sum(amount_cents)
    FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
INSERT INTO metrics_daily_status
  SELECT day, type, provider, status, currency, sum(events), sum(amount_cents)
    FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
ANALYZE metrics_daily_plan;
ANALYZE metrics_daily_status;

-- Current access / access at the start of the range (part 2 of the overview) for a plan filter:
-- the (status, ends_at) index of 005 cannot narrow lower(plan), so a plan=Pro overview would read
-- every entry of it and keep a third; this index gives an index-only scan of the plan's slice.
-- Status filters keep using 005's index.
CREATE INDEX subscriptions_metrics_plan_access_idx ON subscriptions (lower(plan))
  INCLUDE (provider, plan, status, ends_at, start_date);
-- Statistics of the expression lower(plan), so the planner sees the slice's real size.
ANALYZE subscriptions;
