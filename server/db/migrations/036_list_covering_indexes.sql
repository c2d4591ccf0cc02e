-- The lists' sort indexes carry the columns their broad filters read, so a page of a filter that
-- correlates with the sort is read off the index in order, skipping the rows that do not match
-- without reading them (an index-only scan), instead of gathering every match to sort it. At 1M
-- customers on PostgreSQL 15, LemonSqueezy members with access sorted by renewal took 1.4 s and
-- monthly LemonSqueezy subscriptions sorted by latest renewal 0.4 s: the first rows of those
-- orders are yearly ones, or ClickBank ones (bench/README.md, "Correlated filters").
--
-- members.sub_current_period_end: the current_period_end of the subscription a member points at
-- (null without one), kept with the copies of migration 035 by the same triggers, so the Users
-- list sorted by renewal reads members alone, in the order of members_sub_period_end_idx.
ALTER TABLE members ADD COLUMN sub_current_period_end TIMESTAMPTZ;

UPDATE members m SET sub_current_period_end = s.current_period_end
  FROM subscriptions s WHERE s.id = m.subscription_id;

CREATE OR REPLACE FUNCTION member_subscription_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s RECORD;
BEGIN
  SELECT provider, status, cadence, start_date, current_period_end INTO s FROM subscriptions
   WHERE id = NEW.subscription_id FOR SHARE;
  NEW.sub_provider := s.provider;
  NEW.sub_status := s.status;
  NEW.sub_cadence := s.cadence;
  NEW.sub_start_date := s.start_date;
  NEW.sub_current_period_end := s.current_period_end;
  RETURN NEW;
END $$;

DROP TRIGGER members_subscription_fill ON members;
CREATE TRIGGER members_subscription_fill
  BEFORE INSERT OR UPDATE OF subscription_id, sub_provider, sub_status, sub_cadence, sub_start_date,
    sub_current_period_end ON members
  FOR EACH ROW EXECUTE FUNCTION member_subscription_fill();

CREATE OR REPLACE FUNCTION subscription_members_pass_on() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET sub_provider = NEW.provider, sub_status = NEW.status, sub_cadence = NEW.cadence,
         sub_start_date = NEW.start_date, sub_current_period_end = NEW.current_period_end
   WHERE subscription_id = NEW.id;
  RETURN NULL;
END $$;

DROP TRIGGER subscriptions_members_pass_on ON subscriptions;
CREATE TRIGGER subscriptions_members_pass_on
  AFTER UPDATE OF provider, status, cadence, start_date, current_period_end ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.cadence IS DISTINCT FROM NEW.cadence OR OLD.start_date IS DISTINCT FROM NEW.start_date
        OR OLD.current_period_end IS DISTINCT FROM NEW.current_period_end)
  EXECUTE FUNCTION subscription_members_pass_on();

-- Subscriptions: the sort indexes on start, renewal and last update carry the provider, status
-- and cadence (the kept filters) and the start and renewal (the day ranges).
DROP INDEX subscriptions_start_date_idx;
CREATE INDEX subscriptions_start_date_idx ON subscriptions (start_date, id)
  INCLUDE (provider, status, cadence, current_period_end);
DROP INDEX subscriptions_period_end_idx;
CREATE INDEX subscriptions_period_end_idx ON subscriptions (current_period_end, id)
  INCLUDE (provider, status, cadence, start_date);
DROP INDEX subscriptions_updated_at_idx;
CREATE INDEX subscriptions_updated_at_idx ON subscriptions (updated_at, id)
  INCLUDE (provider, status, cadence, start_date, current_period_end);

-- A status is the narrowest kept filter (a few per cent of the rows for cancelled, past due,
-- paused): too sparse to walk, its matches are cut, and its index carries the other kept columns
-- and the sort keys the walks read, so the cut reads no table row either.
DROP INDEX subscriptions_status_idx;
CREATE INDEX subscriptions_status_idx ON subscriptions (status, id)
  INCLUDE (provider, cadence, start_date, current_period_end, updated_at);

-- Members: every sort index of the Users list carries the member's copies of its subscription's
-- provider, status, cadence and start (035), its access status and its expiry (members_sub_start_date_idx
-- of 035 already does); renewal and provider status sort off the copies, ties broken by the
-- subscription as before, and the email off the member's copy (034).
DROP INDEX members_updated_at_idx;
CREATE INDEX members_updated_at_idx ON members (updated_at, id)
  INCLUDE (sub_provider, sub_status, sub_cadence, sub_start_date, mg_status, expires_at);
DROP INDEX members_expires_at_idx;
CREATE INDEX members_expires_at_idx ON members (expires_at, id)
  INCLUDE (updated_at, sub_provider, sub_status, sub_cadence, sub_start_date, mg_status);
CREATE INDEX members_sub_period_end_idx ON members (sub_current_period_end, subscription_id, id)
  INCLUDE (sub_provider, sub_status, sub_cadence, sub_start_date, mg_status, expires_at);
CREATE INDEX members_sub_status_idx ON members (sub_status, subscription_id, id)
  INCLUDE (sub_provider, sub_cadence, sub_start_date, mg_status, expires_at);
CREATE INDEX members_email_sort_idx ON members (email, id)
  INCLUDE (sub_provider, sub_status, sub_cadence, sub_start_date, mg_status, expires_at);
ANALYZE members;
ANALYZE subscriptions;
