-- The Subscriptions list with a start or renewal range reads the range's rows off its index and
-- sorts them by the page's key (server/db/list.ts). Sorted by last update, the key was not in the
-- index: PostgreSQL read the whole updated_at index instead and kept the range's rows (at 1M
-- customers a 30-day start range, 36,491 rows of 1,000,000: 140-160 ms, the slowest list requests
-- of the load test; bench/README.md, "Load test"). Both range indexes now carry updated_at, so the
-- range is read alone, without its rows. updated_at changes with every write of a subscription,
-- which already writes a new entry in every index (it is a key of subscriptions_updated_at_idx).
DROP INDEX subscriptions_start_date_idx;
CREATE INDEX subscriptions_start_date_idx ON subscriptions (start_date, id)
  INCLUDE (provider, status, cadence, current_period_end, updated_at);
DROP INDEX subscriptions_period_end_idx;
CREATE INDEX subscriptions_period_end_idx ON subscriptions (current_period_end, id)
  INCLUDE (provider, status, cadence, start_date, updated_at);
ANALYZE subscriptions;
