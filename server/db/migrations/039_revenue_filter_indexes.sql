-- The revenue figures under a filter follow the movements of the range whose customer had a
-- matching span recurring at the start (server/revenue/revenue.ts, customerFigures): a hash of
-- the spans recurring then, probed by the movements of the range. Both sides were read off the
-- time indexes and filtered, so every provider, plan and cadence was read to keep one: at 1M
-- customers, a year filtered to LemonSqueezy monthly read 440,000 movements and 380,000 spans to
-- keep 91,110 and 117,000 (179 ms p95 for the request; bench/README.md, "Filtered revenue").
--
-- Statistics of lower(plan), the expression the plan filter compares: without them the planner
-- takes a plan's share for half a percent (1,349 spans for 99,703) and probes the movements of
-- each customer one by one (a year filtered to plan Pro: 552 ms p95). ANALYZE gathers them for
-- the spans from the plan index below; the movements' plan index is partial, whose statistics
-- the planner does not use for the table, so they get a statistics object.
CREATE STATISTICS revenue_movements_plan_stats ON (lower(plan)) FROM revenue_movements;

-- Both sides keyed by the filters and carrying what the statement reads, so a filter reads its
-- own slice of the range off the index alone: by provider and cadence, and by lower(plan). The
-- plan indexes carry the plan itself as well: PostgreSQL reads an expression index without the
-- table only when the columns under the expression are in the index too.
CREATE INDEX revenue_movements_filter_idx ON revenue_movements (provider, cadence, at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, first_from, plan, paired, kind_net,
           other_plan, other_cadence)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');
CREATE INDEX revenue_movements_plan_filter_idx ON revenue_movements (lower(plan), at)
  INCLUDE (customer_id, currency, delta_twelfths, kind_alone, first_from, plan, provider, cadence,
           paired, kind_net, other_plan, other_cadence)
  WHERE kind_alone IN ('expansion', 'contraction', 'churn');
CREATE INDEX revenue_spans_filter_idx ON revenue_spans (provider, cadence, valid_from)
  INCLUDE (valid_to, customer_id, plan);
CREATE INDEX revenue_spans_plan_filter_idx ON revenue_spans (lower(plan), valid_from)
  INCLUDE (valid_to, customer_id, plan, provider, cadence);

-- A filter on the provider alone bounds the cadence by both its values (and the other way round)
-- so the scan of the indexes above keeps to the range; these checks, those of the subscriptions
-- the rows come from, make that complete.
ALTER TABLE revenue_spans ADD CONSTRAINT revenue_spans_provider_check
  CHECK (provider IN ('lemonsqueezy', 'clickbank'));
ALTER TABLE revenue_spans ADD CONSTRAINT revenue_spans_cadence_check
  CHECK (cadence IN ('monthly', 'yearly'));
ALTER TABLE revenue_movements ADD CONSTRAINT revenue_movements_provider_check
  CHECK (provider IN ('lemonsqueezy', 'clickbank'));
ALTER TABLE revenue_movements ADD CONSTRAINT revenue_movements_cadence_check
  CHECK (cadence IN ('monthly', 'yearly'));

ANALYZE revenue_spans;
ANALYZE revenue_movements;
