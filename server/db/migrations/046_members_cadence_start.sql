-- The Users list filtered by cadence and a start range read the whole range off
-- members_sub_start_date_idx and kept the cadence's entries: at 1M customers a quarter's start
-- range of yearly members kept 28,758 of 115,539 entries (22-25 ms p95 against the lists' 25 ms
-- budget; bench/README.md, "PostgreSQL at 1M customers"). The Subscriptions list has had the
-- pair's index since migration 003 (subscriptions_cadence_start_idx); this is the members' own,
-- on their copies of the subscription's columns (035), carrying what the list's filters and its
-- sort by last update read, so the range of one cadence is read alone and without the rows.
CREATE INDEX members_cadence_start_idx ON members (sub_cadence, sub_start_date, subscription_id, id)
  INCLUDE (sub_provider, sub_status, mg_status, expires_at, updated_at);
ANALYZE members;
