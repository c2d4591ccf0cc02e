-- The dashboard figures (GET /stats, GET /status) add, for each subscription with access whose
-- member's scheduled expiry overrides its own end, the days to that expiry instead of its own
-- (server/stats/aggregate.ts). They read those members off members_stats_expiry_idx, then probed
-- each member's subscription for its access and its own end: at 1M customers 34,786 probes, 56 of
-- the statement's 62 ms and most of a computation, which every committed change sets off again
-- (server/stats/cache.ts): in the load test, 350 computations a minute, 12 of PostgreSQL's 178
-- seconds (bench/README.md, "Load test").
--
-- members.sub_ends_at: the ends_at of the subscription a member points at (null without one),
-- kept with the copies of migrations 035 and 036 by the same triggers; the statement reads the
-- members' copies of the status, ends_at and current_period_end off the index alone.
ALTER TABLE members ADD COLUMN sub_ends_at TIMESTAMPTZ;

UPDATE members m SET sub_ends_at = s.ends_at
  FROM subscriptions s WHERE s.id = m.subscription_id AND s.ends_at IS NOT NULL;

CREATE OR REPLACE FUNCTION member_subscription_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s RECORD;
BEGIN
  SELECT provider, status, cadence, start_date, current_period_end, ends_at INTO s
    FROM subscriptions WHERE id = NEW.subscription_id FOR SHARE;
  NEW.sub_provider := s.provider;
  NEW.sub_status := s.status;
  NEW.sub_cadence := s.cadence;
  NEW.sub_start_date := s.start_date;
  NEW.sub_current_period_end := s.current_period_end;
  NEW.sub_ends_at := s.ends_at;
  RETURN NEW;
END $$;

DROP TRIGGER members_subscription_fill ON members;
CREATE TRIGGER members_subscription_fill
  BEFORE INSERT OR UPDATE OF subscription_id, sub_provider, sub_status, sub_cadence, sub_start_date,
    sub_current_period_end, sub_ends_at ON members
  FOR EACH ROW EXECUTE FUNCTION member_subscription_fill();

CREATE OR REPLACE FUNCTION subscription_members_pass_on() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET sub_provider = NEW.provider, sub_status = NEW.status, sub_cadence = NEW.cadence,
         sub_start_date = NEW.start_date, sub_current_period_end = NEW.current_period_end,
         sub_ends_at = NEW.ends_at
   WHERE subscription_id = NEW.id;
  RETURN NULL;
END $$;

DROP TRIGGER subscriptions_members_pass_on ON subscriptions;
CREATE TRIGGER subscriptions_members_pass_on
  AFTER UPDATE OF provider, status, cadence, start_date, current_period_end, ends_at ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.cadence IS DISTINCT FROM NEW.cadence OR OLD.start_date IS DISTINCT FROM NEW.start_date
        OR OLD.current_period_end IS DISTINCT FROM NEW.current_period_end
        OR OLD.ends_at IS DISTINCT FROM NEW.ends_at)
  EXECUTE FUNCTION subscription_members_pass_on();

-- The members whose expiry can override an end, carrying what the figures read of their
-- subscription.
DROP INDEX members_stats_expiry_idx;
CREATE INDEX members_stats_expiry_idx ON members (subscription_id)
  INCLUDE (expires_at, sub_status, sub_ends_at, sub_current_period_end)
  WHERE mg_status = 'active' AND expires_at IS NOT NULL AND subscription_id IS NOT NULL;

ANALYZE members;
