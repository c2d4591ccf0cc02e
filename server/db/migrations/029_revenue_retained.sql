-- The NRR numerator and the customers churned of GET /metrics/revenue without filters
-- (server/revenue/revenue.ts, customerFigures) read a roll-up instead of every expansion,
-- contraction and churn of the range (200,000 movements for a year at 1M customers).
--
-- revenue_retained_daily: those movements per UTC day, UTC month of their streak_from (migration
-- 028) and currency: the delta and the churn flips. A movement at or after a UTC midnight A lies
-- in a streak that recurred at A when streak_from <= A; the whole streak months before A's month
-- come from here, the movements whose streak began in A's month up to A from
-- revenue_movements_streak_idx, and those of the last, partial day from 028's index.
-- revenue_movements_restreak_idx holds the movements of a customer's later streaks, the only ones
-- whose customer may have recurred at the start without its streak covering it.
--
-- Kept by the recomputation of migration 015 (revenue_rollup_add, redefined here), as the
-- roll-ups of 018 are.

CREATE TABLE revenue_retained_daily (
  day             DATE NOT NULL,
  streak_month    DATE NOT NULL,
  currency        TEXT NOT NULL,
  delta_twelfths  BIGINT NOT NULL,
  churn_flips     INTEGER NOT NULL,
  pieces          INTEGER NOT NULL,
  PRIMARY KEY (day, streak_month, currency)
);
-- Rows whose pieces cancelled out, found without a scan after each recomputation.
CREATE INDEX revenue_retained_daily_empty_idx ON revenue_retained_daily (day) WHERE pieces = 0;

CREATE INDEX revenue_movements_streak_idx ON revenue_movements (streak_from)
  INCLUDE (at, currency, delta_twelfths, kind_alone, flip)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');
CREATE INDEX revenue_movements_restreak_idx ON revenue_movements (at)
  INCLUDE (customer_id, currency, delta_twelfths, first_from, streak_from)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn') AND streak_from > first_from;

-- Adds p_sign × the movements of the customers selected by `cond` (a condition on alias m) into
-- every roll-up: those of migrations 015 and 018 as before, and revenue_retained_daily.
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
  PERFORM revenue_customers_add(p_sign, cond);
  DELETE FROM revenue_daily WHERE pieces = 0;
  DELETE FROM revenue_monthly WHERE pieces = 0;
  DELETE FROM revenue_retained_daily WHERE pieces = 0;
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
  PERFORM revenue_movements_insert('true');
  PERFORM revenue_rollup_add(1, 'true');
END $$;

CREATE OR REPLACE FUNCTION revenue_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE revenue_daily, revenue_monthly, revenue_cohort_monthly, revenue_customers_daily,
           revenue_customers_monthly, revenue_retained_daily;
  RETURN NULL;
END $$;

-- The movements already stored.
INSERT INTO revenue_retained_daily
  SELECT (m.at AT TIME ZONE 'UTC')::date, date_trunc('month', m.streak_from AT TIME ZONE 'UTC')::date,
         m.currency, sum(m.delta_twelfths), COALESCE(sum(m.flip) FILTER (WHERE m.kind_alone = 'churn'), 0),
         count(*)
    FROM revenue_movements m WHERE m.kind_alone IN ('expansion', 'contraction', 'churn')
   GROUP BY 1, 2, 3;
ANALYZE revenue_retained_daily;
