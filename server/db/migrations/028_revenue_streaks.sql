-- The NRR numerator of GET /metrics/revenue follows the movements of the customers recurring at
-- the start of the range (server/revenue/revenue.ts, customerFigures). Probing every movement's
-- customer spans read a million index entries for a year at 1M customers; two columns of the
-- movement answer most of the question without a probe:
--   first_from:  the customer's first recurring instant (its first 'new' movement): a customer who
--                first recurred after the start was not recurring then;
--   streak_from: the start of the customer's recurring streak the movement falls in (its last
--                'new' or 'reactivation' movement at or before it; an expansion, contraction or
--                churn never shares its instant with one, since they need the customer recurring
--                just before): recurring from streak_from on, so recurring at the start if
--                streak_from is at or before it.
-- Only a movement whose customer recurred first before the start but whose streak began after it
-- (a churn and a reactivation in between) still needs the probe.
-- revenue_movements_insert fills both from the customer's pieces, which it always computes whole.

ALTER TABLE revenue_movements ADD COLUMN first_from TIMESTAMPTZ, ADD COLUMN streak_from TIMESTAMPTZ;

UPDATE revenue_movements m
   SET first_from = w.first_from, streak_from = w.streak_from
  FROM (SELECT id, min(at) OVER (PARTITION BY customer_id) AS first_from,
               max(at) FILTER (WHERE kind_alone IN ('new', 'reactivation'))
                 OVER (PARTITION BY customer_id ORDER BY at) AS streak_from
          FROM revenue_movements) w
 WHERE w.id = m.id;

ALTER TABLE revenue_movements ALTER COLUMN first_from SET NOT NULL, ALTER COLUMN streak_from SET NOT NULL;

-- The movements the numerator reads (expansion, contraction and churn: for a piece of a split
-- change kind_net is one of these too), with what it reads of them, under filters too.
CREATE INDEX revenue_movements_retained_idx ON revenue_movements (at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, flip, first_from, streak_from,
           provider, plan, cadence, paired, kind_net, other_plan, other_cadence)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');

CREATE OR REPLACE FUNCTION revenue_movements_insert(cond TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO revenue_movements (subscription_id, customer_id, at, provider, plan, cadence, currency,
                                   kind_alone, kind_net, paired, other_plan, other_cadence,
                                   delta_twelfths, flip, cohort, cohort_provider, first_from, streak_from)
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
             OVER (PARTITION BY p.customer_id ORDER BY p.at)
      FROM pieces p JOIN first f USING (customer_id)
  $q$, cond);
END $$;

ANALYZE revenue_movements;
