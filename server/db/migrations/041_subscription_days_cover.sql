-- The overview's access figures (server/routes/metrics.ts, accessByProviderPlan) sum two ranges
-- of subscription_days: the cancelled subscriptions' ends after today (10,184 rows at 1M
-- customers) and the starts and ends of the range's first month before its first day (6,815).
-- The primary key finds them but not their count n, so each row was read from the table: 14 ms
-- of the statement, the one PostgreSQL spent most time on in the load test (548 calls a minute,
-- 52 ms each under the load; bench/README.md, "Load test"). With n in the key's index both
-- ranges are index-only: 7 ms idle.
ALTER TABLE subscription_days DROP CONSTRAINT subscription_days_pkey,
  ADD CONSTRAINT subscription_days_pkey PRIMARY KEY (day, kind, provider, plan, status, source)
    INCLUDE (n);

-- Index-only scans read a row from the table when VACUUM has not marked its page all-visible
-- since it changed; every subscription change folds into a few of these rows (migration 037's
-- reasoning for the larger tables).
ALTER TABLE subscription_days SET (autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);

ANALYZE subscription_days;
