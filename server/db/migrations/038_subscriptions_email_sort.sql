-- The Subscriptions list sorted by email reads the subscription's copy of its customer's email
-- (migration 034) off this index, which carries the kept filters' columns and the start and
-- renewal as the other sort indexes do since migration 036: sorted through the customers' email
-- index, a filter's page was cut from its matches once they were sparse or correlated with the
-- email order (cancelled monthly subscriptions by email, or a start and a renewal range: 86–135 ms
-- at 1M; bench/README.md, "Correlated filters").
CREATE INDEX subscriptions_email_sort_idx ON subscriptions (email, id)
  INCLUDE (provider, status, cadence, start_date, current_period_end);
ANALYZE subscriptions;
