-- The NRR numerator under a filter (server/revenue/revenue.ts, customerFigures) follows the
-- movements of the range whose customer recurred under the filter at the start: had a span
-- passing it then. That was a hash of every such span, probed by the range's movements (at 1M
-- customers, a year of monthly LemonSqueezy subscriptions: 117,000 spans for 91,000 movements).
-- Customers rarely change provider or cadence: every span of such a customer passes a provider
-- or cadence filter that one of its movements passes, so it recurred under the filter exactly when
-- it recurred at all, which streak_from tells (migration 028).
--   uniform: bit 1 set when the customer's spans share one provider, bit 2 one cadence; 0 tells
--            nothing (the probe decides), so a row written without it is still counted right.
-- revenue_movements_insert fills it from the customer's pieces, which it always computes whole:
-- each span starts a piece with its own provider and cadence, or continues one with the same.
--
-- Under a provider or cadence filter, a movement whose customer is uniform in the filtered
-- dimensions and whose streak began at or before the start is counted without a probe. The others
-- are probed as before: those of customers mixed in a filtered dimension, read off
-- revenue_movements_mixed_idx by their value of uniform (none in the demo data), and the later
-- streaks, off revenue_movements_restreak_idx (migration 029). A churn at the start itself of a
-- uniform customer in its first streak is in neither, and no span recurs then. A plan filter
-- still hashes the spans: customers change plans often (a fifth of the demo data's movements),
-- and probing those one by one took twice the hash's time (at 1M, a year of plan Pro: 58–64 ms
-- with the hash, 132–147 with a bit for the plan).

-- Filled for every stored movement by rewriting the table (ALTER COLUMN … TYPE … USING), which
-- builds each index afresh. An UPDATE of every row in this transaction would leave the table and
-- each of its indexes twice their size (at 1M customers, revenue_movements_filter_idx 82 → 175 MB;
-- an index built in the same transaction keeps the old row versions too). The rewritten table
-- has no visibility map yet, so the index-only scans of the revenue figures would read it too
-- until a VACUUM: the migration runner runs one after the commit (server/db/index.ts).
-- vacuum after: revenue_movements
ALTER TABLE revenue_movements ADD COLUMN uniform SMALLINT NOT NULL DEFAULT 0;
CREATE TEMP TABLE revenue_uniform_048 ON COMMIT DROP AS
  SELECT customer_id,
         ((min(provider) = max(provider))::int | ((min(cadence) = max(cadence))::int << 1))::smallint AS uniform
    FROM revenue_movements GROUP BY customer_id;
CREATE UNIQUE INDEX ON revenue_uniform_048 (customer_id);
ANALYZE revenue_uniform_048;
CREATE FUNCTION pg_temp.revenue_uniform_048(p_customer BIGINT) RETURNS SMALLINT LANGUAGE sql STABLE
  AS $$ SELECT uniform FROM revenue_uniform_048 WHERE customer_id = p_customer $$;
DROP INDEX IF EXISTS revenue_movements_filter_idx;
ALTER TABLE revenue_movements ALTER COLUMN uniform TYPE SMALLINT USING pg_temp.revenue_uniform_048(customer_id);
DROP FUNCTION pg_temp.revenue_uniform_048(BIGINT);

CREATE OR REPLACE FUNCTION revenue_movements_insert(cond TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO revenue_movements (subscription_id, customer_id, at, provider, plan, cadence, currency,
                                   kind_alone, kind_net, paired, other_plan, other_cadence,
                                   delta_twelfths, flip, cohort, cohort_provider, first_from, streak_from, uniform)
    WITH sp AS (SELECT * FROM revenue_spans s WHERE %1$s),
    first AS (
      SELECT DISTINCT ON (customer_id) customer_id,
             date_trunc('month', valid_from AT TIME ZONE 'UTC')::date AS cohort, provider AS cohort_provider
        FROM sp ORDER BY customer_id, valid_from, subscription_id
    ),
    pts AS (
      SELECT subscription_id, customer_id, valid_from AS at FROM sp
      UNION
      SELECT subscription_id, customer_id, valid_to FROM sp WHERE valid_to IS NOT NULL
    ),
    -- The customer's other spans and the subscription's own are read through the indexes of
    -- revenue_spans (a condition on the customer keeps every span of it, so nothing is missed).
    ch AS (
      SELECT p.subscription_id, p.customer_id, p.at,
             b.provider AS b_provider, b.plan AS b_plan, b.cadence AS b_cadence, b.currency AS b_currency,
             b.mrr_twelfths AS bv,
             a.provider AS a_provider, a.plan AS a_plan, a.cadence AS a_cadence, a.currency AS a_currency,
             a.mrr_twelfths AS av,
             EXISTS (SELECT 1 FROM revenue_spans o WHERE o.customer_id = p.customer_id AND o.subscription_id <> p.subscription_id
                        AND o.valid_from < p.at AND (o.valid_to IS NULL OR o.valid_to >= p.at)) AS others_before,
             EXISTS (SELECT 1 FROM revenue_spans o WHERE o.customer_id = p.customer_id AND o.subscription_id <> p.subscription_id
                        AND o.valid_from <= p.at AND (o.valid_to IS NULL OR o.valid_to > p.at)) AS others_after,
             EXISTS (SELECT 1 FROM revenue_spans o WHERE o.customer_id = p.customer_id AND o.valid_from < p.at) AS ever_before
        FROM pts p
        LEFT JOIN revenue_spans b ON b.subscription_id = p.subscription_id AND b.customer_id = p.customer_id AND b.valid_to = p.at
        LEFT JOIN revenue_spans a ON a.subscription_id = p.subscription_id AND a.customer_id = p.customer_id AND a.valid_from = p.at
    ),
    k AS (
      SELECT ch.*,
             CASE WHEN bv IS NULL THEN
                    CASE WHEN others_before THEN 'expansion' WHEN ever_before THEN 'reactivation' ELSE 'new' END
                  WHEN av IS NULL THEN CASE WHEN others_after THEN 'contraction' ELSE 'churn' END
                  WHEN av >= bv THEN 'expansion' ELSE 'contraction' END AS kind,
             (bv IS NOT NULL AND av IS NOT NULL
              AND (b_provider, b_plan, b_cadence, b_currency) IS DISTINCT FROM (a_provider, a_plan, a_cadence, a_currency)) AS split,
             (b_provider IS NOT DISTINCT FROM a_provider AND b_currency IS NOT DISTINCT FROM a_currency) AS pairable
        FROM ch
       WHERE NOT (bv IS NOT NULL AND av IS NOT NULL AND bv = av
                  AND (b_provider, b_plan, b_cadence, b_currency) IS NOT DISTINCT FROM (a_provider, a_plan, a_cadence, a_currency))
    ),
    pieces AS (
      -- One piece: a start, an end, or a change of value under one key.
      SELECT subscription_id, customer_id, at,
             COALESCE(a_provider, b_provider) AS provider, COALESCE(a_plan, b_plan) AS plan,
             COALESCE(a_cadence, b_cadence) AS cadence, COALESCE(a_currency, b_currency) AS currency,
             kind AS kind_alone, kind AS kind_net, true AS paired,
             COALESCE(a_plan, b_plan) AS other_plan, COALESCE(a_cadence, b_cadence) AS other_cadence,
             COALESCE(av, 0) - COALESCE(bv, 0) AS delta_twelfths
        FROM k WHERE NOT split
      UNION ALL
      SELECT subscription_id, customer_id, at, b_provider, b_plan, b_cadence, b_currency,
             'contraction', CASE WHEN pairable THEN kind ELSE 'contraction' END, pairable, a_plan, a_cadence, -bv
        FROM k WHERE split
      UNION ALL
      SELECT subscription_id, customer_id, at, a_provider, a_plan, a_cadence, a_currency,
             'expansion', CASE WHEN pairable THEN kind ELSE 'expansion' END, pairable, b_plan, b_cadence, av
        FROM k WHERE split
    )
    SELECT p.subscription_id, p.customer_id, p.at, p.provider, p.plan, p.cadence, p.currency,
           p.kind_alone, p.kind_net, p.paired, p.other_plan, p.other_cadence, p.delta_twelfths,
           CASE WHEN p.kind_alone IN ('new', 'reactivation', 'churn')
                 AND row_number() OVER (PARTITION BY p.customer_id, p.at, p.kind_alone ORDER BY p.subscription_id) = 1
                THEN CASE WHEN p.kind_alone = 'churn' THEN -1 ELSE 1 END ELSE 0 END,
           f.cohort, f.cohort_provider,
           min(p.at) OVER (PARTITION BY p.customer_id),
           max(p.at) FILTER (WHERE p.kind_alone IN ('new', 'reactivation'))
             OVER (PARTITION BY p.customer_id ORDER BY p.at),
           ((min(p.provider) OVER c = max(p.provider) OVER c)::int
            | ((min(p.cadence) OVER c = max(p.cadence) OVER c)::int << 1))::smallint
      FROM pieces p JOIN first f USING (customer_id)
    WINDOW c AS (PARTITION BY p.customer_id)
  $q$, cond);
END $$;

CREATE INDEX revenue_movements_filter_idx ON revenue_movements (provider, cadence, at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, first_from, plan, paired, kind_net,
           other_plan, other_cadence, flip, streak_from, uniform)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');
-- The movements of customers mixed in provider or cadence, by their value of uniform.
CREATE INDEX revenue_movements_mixed_idx ON revenue_movements (uniform, at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, first_from, plan, provider, cadence,
           paired, kind_net, other_plan, other_cadence, flip, streak_from)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn') AND uniform <> 3;

ANALYZE revenue_movements;
