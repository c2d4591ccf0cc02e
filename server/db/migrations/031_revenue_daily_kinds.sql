-- A narrow daily roll-up for GET /metrics/revenue without filters (server/revenue/revenue.ts):
-- its series by day reads each movement's kind as it counts unfiltered (kind_net when the change
-- was split into paired pieces, else kind_alone) per currency and cadence. revenue_daily splits
-- every day further by provider, plan and the pieces' other halves: a year of days read 60,000
-- rows of it at 1M customers against 10,000 here (bench/README.md, "Revenue queries").
--
-- revenue_daily_kinds: day, currency, cadence, kind → delta_twelfths and pieces, exactly the
-- GROUP BY of revenue_movements over that key. Kept by the recomputation of migration 015
-- (revenue_rollup_add, redefined here), emptied with the others on truncate and rebuilt by
-- revenue_rebuild().

CREATE TABLE revenue_daily_kinds (
  day             DATE NOT NULL,
  currency        TEXT NOT NULL,
  cadence         TEXT NOT NULL,
  kind            TEXT NOT NULL,
  delta_twelfths  BIGINT NOT NULL,
  pieces          INTEGER NOT NULL,
  PRIMARY KEY (day, currency, cadence, kind)
);
-- Rows whose pieces cancelled out, found without a scan after each recomputation.
CREATE INDEX revenue_daily_kinds_empty_idx ON revenue_daily_kinds (day) WHERE pieces = 0;

-- Adds p_sign × the movements of the customers selected by `cond` (a condition on alias m) into
-- every roll-up: those of migrations 015, 018 and 029 as before, and revenue_daily_kinds.
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
  EXECUTE format($q$
    INSERT INTO revenue_retained_daily AS r
      SELECT (m.at AT TIME ZONE 'UTC')::date, date_trunc('month', m.streak_from AT TIME ZONE 'UTC')::date,
             m.currency, %1$s * sum(m.delta_twelfths),
             %1$s * COALESCE(sum(m.flip) FILTER (WHERE m.kind_alone = 'churn'), 0), %1$s * count(*)
        FROM revenue_movements m WHERE (%2$s) AND m.kind_alone IN ('expansion', 'contraction', 'churn')
       GROUP BY 1, 2, 3
    ON CONFLICT ON CONSTRAINT revenue_retained_daily_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths,
          churn_flips = r.churn_flips + EXCLUDED.churn_flips, pieces = r.pieces + EXCLUDED.pieces
  $q$, p_sign, cond);
  EXECUTE format($q$
    INSERT INTO revenue_daily_kinds AS r
      SELECT (m.at AT TIME ZONE 'UTC')::date, m.currency, m.cadence,
             CASE WHEN m.paired THEN m.kind_net ELSE m.kind_alone END,
             %1$s * sum(m.delta_twelfths), %1$s * count(*)
        FROM revenue_movements m WHERE %2$s
       GROUP BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT revenue_daily_kinds_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths, pieces = r.pieces + EXCLUDED.pieces
  $q$, p_sign, cond);
  PERFORM revenue_customers_add(p_sign, cond);
  DELETE FROM revenue_daily WHERE pieces = 0;
  DELETE FROM revenue_monthly WHERE pieces = 0;
  DELETE FROM revenue_retained_daily WHERE pieces = 0;
  DELETE FROM revenue_daily_kinds WHERE pieces = 0;
  DELETE FROM revenue_cohort_monthly
   WHERE delta_twelfths = 0 AND flips = 0 AND new_customers = 0 AND new_twelfths = 0;
END $$;

CREATE OR REPLACE FUNCTION revenue_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM revenue_movements;
  DELETE FROM revenue_daily;
  DELETE FROM revenue_monthly;
  DELETE FROM revenue_cohort_monthly;
  DELETE FROM revenue_customers_daily;
  DELETE FROM revenue_customers_monthly;
  DELETE FROM revenue_retained_daily;
  DELETE FROM revenue_daily_kinds;
  PERFORM revenue_movements_insert('true');
  PERFORM revenue_rollup_add(1, 'true');
END $$;

CREATE OR REPLACE FUNCTION revenue_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE revenue_daily, revenue_monthly, revenue_cohort_monthly, revenue_customers_daily,
           revenue_customers_monthly, revenue_retained_daily, revenue_daily_kinds;
  RETURN NULL;
END $$;

-- The movements already stored.
INSERT INTO revenue_daily_kinds
  SELECT (m.at AT TIME ZONE 'UTC')::date, m.currency, m.cadence,
         CASE WHEN m.paired THEN m.kind_net ELSE m.kind_alone END, sum(m.delta_twelfths), count(*)
    FROM revenue_movements m
   GROUP BY 1, 2, 3, 4;
ANALYZE revenue_daily_kinds;
