-- Indexes for every filter and sort of GET /users and GET /subscriptions, and for the
-- expiration run. Sort indexes carry the id tie-breaker the routes add (ORDER BY col, id), so a
-- page is read straight off the index in either direction.
-- pg_trgm backs the case-insensitive substring search on email (LIKE '%…%'); emails are stored
-- lower case (customers CHECK), so the plain column is indexed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX customers_email_trgm_idx ON customers USING gin (email gin_trgm_ops);

-- subscriptions: provider + provider_id is already UNIQUE (001); provider_id alone is a filter too.
CREATE INDEX subscriptions_provider_id_idx ON subscriptions (provider_id);
CREATE INDEX subscriptions_status_idx ON subscriptions (status, id);
CREATE INDEX subscriptions_cadence_idx ON subscriptions (cadence, id);
CREATE INDEX subscriptions_provider_sort_idx ON subscriptions (provider, id);
CREATE INDEX subscriptions_start_date_idx ON subscriptions (start_date, id);
CREATE INDEX subscriptions_period_end_idx ON subscriptions (current_period_end, id);
CREATE INDEX subscriptions_ends_at_idx ON subscriptions (ends_at, id);
CREATE INDEX subscriptions_updated_at_idx ON subscriptions (updated_at, id);
CREATE INDEX subscriptions_amount_idx ON subscriptions (amount_cents, id);

-- members: the Users row. (mg_status, expires_at) serves the mg_status filter (active /
-- scheduled / cancelled) and the expiration run (active AND expires_at <= now).
CREATE INDEX members_status_expires_idx ON members (mg_status, expires_at);
CREATE INDEX members_status_sort_idx ON members (mg_status, id);
CREATE INDEX members_expires_at_idx ON members (expires_at, id);
CREATE INDEX members_updated_at_idx ON members (updated_at, id);

-- ClickBank orders of a subscription (the detail drawer), newest first.
CREATE INDEX clickbank_orders_subscription_idx ON clickbank_orders (subscription_id, created_at_provider DESC);
