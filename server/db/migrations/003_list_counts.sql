-- Lists at 100k customers: exact totals without count(*), and indexes for the
-- filtered lists. Portable PostgreSQL (PGlite and PostgreSQL 15).
--
-- 1. Exact row counts of the list tables, kept by statement-level triggers, so an unfiltered list
--    reads its total in O(1) instead of count(*) over every row (server/db/list.ts rowCountSql).
--    INSERT (also COPY and INSERT … ON CONFLICT: only inserted rows are in the transition table),
--    DELETE and TRUNCATE keep the count exact; UPDATE does not change it. Concurrent writers
--    serialise on the table's one counter row until they commit, which the admin write rates
--    (webhooks, access actions) never notice.
CREATE TABLE row_counts (
  table_name  TEXT PRIMARY KEY,
  n           BIGINT NOT NULL CHECK (n >= 0)
);

CREATE FUNCTION row_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n + (SELECT count(*) FROM new_rows) WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END
$$;

CREATE FUNCTION row_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n - (SELECT count(*) FROM old_rows) WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END
$$;

CREATE FUNCTION row_counts_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = 0 WHERE table_name = TG_TABLE_NAME;
  RETURN NULL;
END
$$;

CREATE TRIGGER subscriptions_count_insert AFTER INSERT ON subscriptions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_after_insert();
CREATE TRIGGER subscriptions_count_delete AFTER DELETE ON subscriptions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_after_delete();
CREATE TRIGGER subscriptions_count_truncate AFTER TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_after_truncate();

CREATE TRIGGER members_count_insert AFTER INSERT ON members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_after_insert();
CREATE TRIGGER members_count_delete AFTER DELETE ON members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_after_delete();
CREATE TRIGGER members_count_truncate AFTER TRUNCATE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION row_counts_after_truncate();

-- CREATE TRIGGER locks both tables against writes until this migration commits, so no row slips
-- between the triggers and the initial counts.
INSERT INTO row_counts (table_name, n)
SELECT 'subscriptions', count(*) FROM subscriptions
UNION ALL
SELECT 'members', count(*) FROM members;

-- 2. Indexes for filter combinations the Users and Subscriptions filter rows offer together, so a
--    filtered list reads only its matches instead of intersecting two large bitmaps:
--    provider + provider status, and cadence + start date range.
CREATE INDEX subscriptions_provider_status_idx ON subscriptions (provider, status, id);
CREATE INDEX subscriptions_cadence_start_idx ON subscriptions (cadence, start_date, id);

-- 3. Covering member indexes: a filtered Users list reads each match's (id, updated_at) — the
--    row id and the default sort key — straight from the index that found it (index-only scan)
--    instead of visiting the member row: the subscription join (provider / status / cadence /
--    start filters), the mg_status and expiry filters (and the expiration run), and the email
--    filter's customer join. Same leading columns as the indexes they replace.
DROP INDEX members_subscription_idx;
CREATE INDEX members_subscription_idx ON members (subscription_id) INCLUDE (id, updated_at);
DROP INDEX members_status_expires_idx;
CREATE INDEX members_status_expires_idx ON members (mg_status, expires_at) INCLUDE (id, updated_at);
CREATE INDEX members_customer_cover_idx ON members (customer_id) INCLUDE (id, updated_at);
