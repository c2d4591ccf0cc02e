-- The roll-up rows whose pieces cancelled out, found without a scan.
--
-- Every write to a subscription's status, end, amount, cadence, plan, currency, provider or
-- customer recomputes its customer's movements (revenue_customer_refresh, migration 015), and each
-- of the two recomputations then deletes the roll-up rows that summed to nothing. Without an index
-- those deletes read the whole of revenue_daily: at 100,000 customers (about 42,000 rows) that is
-- 9–23 ms a delete, two a write, most of the trigger's cost and so of a webhook delivery's or a
-- reconciliation fix's (bench/README.md "Reconciliation"). A partial index holds only the empty
-- rows, which the same statement removes, so it stays near empty and the delete reads a few
-- entries. revenue_monthly and the customer roll-ups have theirs since migration 018.
CREATE INDEX revenue_daily_empty_idx ON revenue_daily (day) WHERE pieces = 0;
CREATE INDEX revenue_cohort_monthly_empty_idx ON revenue_cohort_monthly (month)
  WHERE delta_twelfths = 0 AND flips = 0 AND new_customers = 0 AND new_twelfths = 0;
