-- Cheap dashboard figures: one statement over every subscription is slow at 100 000 customers, and
-- on the embedded one-connection database every other request waits behind it. So
-- server/stats/aggregate.ts reads the figures in short statements over these covering indexes
-- (index-only scans, no visit to the wide subscription rows that carry the provider payload),
-- in slices of subscription ids / customer ids so other requests' queries run in between.
-- All portable PostgreSQL (PGlite and PostgreSQL 15+). Figures: bench/README.md "Dashboard stats".

-- 1. Current access per (currency, cadence) with the money and the days left, one id slice at a
--    time: led by id so a slice is an index range, carrying every column the access condition
--    (server/stats activeAccessCondition: status, ends_at) and the figures read.
CREATE INDEX subscriptions_stats_slice_idx ON subscriptions (id)
  INCLUDE (status, ends_at, cadence, currency, amount_cents, current_period_end);

-- 2. The member expiry that overrides a subscription's end in "days left" (members active with a
--    scheduled expires_at): a few thousand rows, read per slice of subscription ids.
CREATE INDEX members_stats_expiry_idx ON members (subscription_id) INCLUDE (expires_at)
  WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL;

-- 3. Refunds for all-time revenue (new and renewal amounts come from metrics_daily_provider,
--    migration 005): the few refund events without scanning every event.
CREATE INDEX subscription_events_refund_idx ON subscription_events (subscription_id)
  INCLUDE (currency, amount_cents) WHERE type = 'refund';

ANALYZE subscriptions;
ANALYZE members;
ANALYZE subscription_events;
