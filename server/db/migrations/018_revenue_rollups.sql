-- Roll-ups that let GET /metrics/revenue read a few hundred rows instead of the whole daily
-- roll-up and every span (bench/README.md "Revenue queries"). They are kept by the recomputation
-- of migration 015 (revenue_rollup_add, redefined here), so the subscriptions trigger, the seed's
-- revenue_rebuild() and a truncate keep them as they keep revenue_daily.
--
-- 1. revenue_monthly: revenue_daily grouped by UTC month instead of day (same columns, same
--    meaning). Whole months of a range, the MRR before it and the MRR by key at its end read it.
-- 2. revenue_customers_daily and revenue_customers_monthly: per UTC day (month), the change in
--    the number of customers recurring under each filter. A customer recurs under a filter at an
--    instant when one of its spans with the filter's provider, plan (compared in lower case) and
--    cadence recurs then. g is the filter's shape: bit 1 provider, bit 2 plan, bit 4 cadence; a
--    column outside the shape holds ''. The sum of `customers` over the months and days before a
--    UTC midnight D is the count just before D (every change at an instant before D applied).
--    Each customer's changes come from its movements: the running sum of its deltas under one
--    filter value is the monthly value of its spans there, positive exactly while one recurs.

-- ---------------------------------------------------------------------------------------------
-- 1. Monthly roll-up of the movements
CREATE TABLE revenue_monthly (
  month           DATE NOT NULL,
  provider        TEXT NOT NULL,
  plan            TEXT NOT NULL,
  cadence         TEXT NOT NULL,
  currency        TEXT NOT NULL,
  kind_alone      TEXT NOT NULL,
  kind_net        TEXT NOT NULL,
  paired          BOOLEAN NOT NULL,
  other_plan      TEXT NOT NULL,
  other_cadence   TEXT NOT NULL,
  delta_twelfths  BIGINT NOT NULL,
  pieces          INTEGER NOT NULL,
  PRIMARY KEY (month, provider, plan, cadence, currency, kind_alone, kind_net, paired, other_plan, other_cadence)
);
-- Rows whose pieces cancelled out, found without a scan after each recomputation.
CREATE INDEX revenue_monthly_empty_idx ON revenue_monthly (month) WHERE pieces = 0;

-- ---------------------------------------------------------------------------------------------
-- 2. Customers recurring under each filter, as daily and monthly changes
CREATE TABLE revenue_customers_daily (
  g          SMALLINT NOT NULL CHECK (g BETWEEN 0 AND 7),
  provider   TEXT NOT NULL,
  plan       TEXT NOT NULL,
  cadence    TEXT NOT NULL,
  day        DATE NOT NULL,
  customers  INTEGER NOT NULL,
  PRIMARY KEY (g, provider, plan, cadence, day)
);
CREATE INDEX revenue_customers_daily_empty_idx ON revenue_customers_daily (day) WHERE customers = 0;
-- The same changes by UTC month (first day), so a count reads whole months here and only the
-- days of its last month in revenue_customers_daily.
CREATE TABLE revenue_customers_monthly (
  g          SMALLINT NOT NULL CHECK (g BETWEEN 0 AND 7),
  provider   TEXT NOT NULL,
  plan       TEXT NOT NULL,
  cadence    TEXT NOT NULL,
  month      DATE NOT NULL,
  customers  INTEGER NOT NULL,
  PRIMARY KEY (g, provider, plan, cadence, month)
);
CREATE INDEX revenue_customers_monthly_empty_idx ON revenue_customers_monthly (month) WHERE customers = 0;

-- Adds p_sign × the changes in recurring customers of the customers selected by `cond` (a
-- condition on alias m) into revenue_customers_daily and revenue_customers_monthly. Per customer,
-- filter value and instant: d is the change of value there and v the running value after it; the
-- customer starts recurring there when v − d ≤ 0 < v and stops when v ≤ 0 < v − d.
CREATE FUNCTION revenue_customers_add(p_sign INTEGER, cond TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    WITH keyed AS (
      SELECT m.customer_id, m.at, gs.g,
             CASE WHEN gs.g & 1 <> 0 THEN m.provider ELSE '' END AS provider,
             CASE WHEN gs.g & 2 <> 0 THEN lower(m.plan) ELSE '' END AS plan,
             CASE WHEN gs.g & 4 <> 0 THEN m.cadence ELSE '' END AS cadence,
             sum(m.delta_twelfths) AS d
        FROM revenue_movements m CROSS JOIN generate_series(0, 7) AS gs(g)
       WHERE %2$s
       GROUP BY 1, 2, 3, 4, 5, 6
    ),
    run AS (
      SELECT keyed.*,
             sum(d) OVER (PARTITION BY customer_id, g, provider, plan, cadence ORDER BY at) AS v
        FROM keyed
    ),
    changes AS (
      SELECT g, provider, plan, cadence, (at AT TIME ZONE 'UTC')::date AS day,
             %1$s * sum(CASE WHEN v > 0 THEN 1 ELSE -1 END) AS customers
        FROM run
       WHERE (v > 0) <> (v - d > 0)
       GROUP BY 1, 2, 3, 4, 5
    ),
    daily AS (
      INSERT INTO revenue_customers_daily AS r SELECT * FROM changes
      ON CONFLICT ON CONSTRAINT revenue_customers_daily_pkey DO UPDATE
        SET customers = r.customers + EXCLUDED.customers
    )
    INSERT INTO revenue_customers_monthly AS r
      SELECT g, provider, plan, cadence, date_trunc('month', day)::date, sum(customers)
        FROM changes GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT revenue_customers_monthly_pkey DO UPDATE
      SET customers = r.customers + EXCLUDED.customers
  $q$, p_sign, cond);
  DELETE FROM revenue_customers_daily WHERE customers = 0;
  DELETE FROM revenue_customers_monthly WHERE customers = 0;
END $$;

-- Adds p_sign × the movements of the customers selected by `cond` (a condition on alias m) into
-- every roll-up: those of migration 015 as before, and the two above.
CREATE OR REPLACE FUNCTION revenue_rollup_add(p_sign INTEGER, cond TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO revenue_daily AS r
      SELECT (m.at AT TIME ZONE 'UTC')::date, m.provider, m.plan, m.cadence, m.currency, m.kind_alone,
             m.kind_net, m.paired, m.other_plan, m.other_cadence, %1$s * sum(m.delta_twelfths), %1$s * count(*)
        FROM revenue_movements m WHERE %2$s
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    ON CONFLICT ON CONSTRAINT revenue_daily_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths, pieces = r.pieces + EXCLUDED.pieces
  $q$, p_sign, cond);
  EXECUTE format($q$
    INSERT INTO revenue_monthly AS r
      SELECT date_trunc('month', m.at AT TIME ZONE 'UTC')::date, m.provider, m.plan, m.cadence, m.currency,
             m.kind_alone, m.kind_net, m.paired, m.other_plan, m.other_cadence,
             %1$s * sum(m.delta_twelfths), %1$s * count(*)
        FROM revenue_movements m WHERE %2$s
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    ON CONFLICT ON CONSTRAINT revenue_monthly_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths, pieces = r.pieces + EXCLUDED.pieces
  $q$, p_sign, cond);
  EXECUTE format($q$
    INSERT INTO revenue_cohort_monthly AS r
      SELECT m.cohort, m.cohort_provider, date_trunc('month', m.at AT TIME ZONE 'UTC')::date, m.currency,
             %1$s * sum(m.delta_twelfths), %1$s * sum(m.flip),
             %1$s * count(*) FILTER (WHERE m.kind_alone = 'new' AND m.flip = 1),
             %1$s * COALESCE(sum(m.delta_twelfths) FILTER (WHERE m.kind_alone = 'new'), 0)
        FROM revenue_movements m WHERE %2$s
       GROUP BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT revenue_cohort_monthly_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths, flips = r.flips + EXCLUDED.flips,
          new_customers = r.new_customers + EXCLUDED.new_customers,
          new_twelfths = r.new_twelfths + EXCLUDED.new_twelfths
  $q$, p_sign, cond);
  PERFORM revenue_customers_add(p_sign, cond);
  DELETE FROM revenue_daily WHERE pieces = 0;
  DELETE FROM revenue_monthly WHERE pieces = 0;
  DELETE FROM revenue_cohort_monthly
   WHERE delta_twelfths = 0 AND flips = 0 AND new_customers = 0 AND new_twelfths = 0;
END $$;

-- Recomputes every movement and every roll-up from the spans.
CREATE OR REPLACE FUNCTION revenue_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM revenue_movements;
  DELETE FROM revenue_daily;
  DELETE FROM revenue_monthly;
  DELETE FROM revenue_cohort_monthly;
  DELETE FROM revenue_customers_daily;
  DELETE FROM revenue_customers_monthly;
  PERFORM revenue_movements_insert('true');
  PERFORM revenue_rollup_add(1, 'true');
END $$;

CREATE OR REPLACE FUNCTION revenue_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE revenue_daily, revenue_monthly, revenue_cohort_monthly, revenue_customers_daily,
           revenue_customers_monthly;
  RETURN NULL;
END $$;

-- The movements already stored: the new roll-ups only (015's are already kept). A month is the
-- sum of its days.
INSERT INTO revenue_monthly
  SELECT date_trunc('month', day)::date, provider, plan, cadence, currency, kind_alone, kind_net, paired,
         other_plan, other_cadence, sum(delta_twelfths), sum(pieces)
    FROM revenue_daily
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
SELECT revenue_customers_add(1, 'true');
ANALYZE revenue_monthly;
ANALYZE revenue_customers_daily;
ANALYZE revenue_customers_monthly;
