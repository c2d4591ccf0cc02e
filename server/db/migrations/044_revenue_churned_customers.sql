-- The customers of the start who churned, under a filter (server/revenue/revenue.ts,
-- customerFigures), were counted as the distinct customers among the matching churn pieces of the
-- range: a count(DISTINCT) over every movement the NRR statement keeps (151,713 for a year of
-- monthly subscriptions at 1M customers), which PostgreSQL gathers from its parallel workers and
-- sorts in one process. Two columns of the movement count most of them without a DISTINCT:
--   flip = −1 marks exactly one piece of each churn of a customer (the whole customer turning off);
--   streak_from <= the start marks the streak that covered the start, which ends in one churn.
-- So the pieces with both are distinct customers, and the workers can sum them with the NRR
-- numerator. The rest (a churn of several subscriptions at once whose marked piece does not match
-- the filter, or a later churn after a comeback) are few, read off revenue_movements_churn_rest_idx
-- and counted distinct apart from the customers already counted.
DROP INDEX revenue_movements_filter_idx;
CREATE INDEX revenue_movements_filter_idx ON revenue_movements (provider, cadence, at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, first_from, plan, paired, kind_net,
           other_plan, other_cadence, flip, streak_from)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');
DROP INDEX revenue_movements_plan_filter_idx;
CREATE INDEX revenue_movements_plan_filter_idx ON revenue_movements (lower(plan), at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, first_from, plan, provider, cadence,
           paired, kind_net, other_plan, other_cadence, flip, streak_from)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');
-- A churn piece not counted through flip and streak_from: no flip (another piece of the same churn
-- has it), or a streak begun after the customer's first (a later streak: streak_from > the start
-- implies it for a customer who recurred first at or before the start).
CREATE INDEX revenue_movements_churn_rest_idx ON revenue_movements (at)
  INCLUDE (customer_id, provider, plan, cadence, first_from, flip, streak_from)
  WHERE kind_alone = 'churn' AND (flip = 0 OR streak_from > first_from);

ANALYZE revenue_movements;
