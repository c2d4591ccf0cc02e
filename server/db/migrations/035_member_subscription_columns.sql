-- The Users list's filters on a member's subscription (provider, provider status, cadence, start
-- date) read copies of those columns on the member row. Matched through the subscription, every
-- match cost a probe of its member: a start range and a cadence matching 28,758 members at 1M
-- customers took 70 ms to count and cut (bench/README.md, "PostgreSQL at 1M customers"), and a
-- walk of the list sorted by start date probed each row's member and subscription.
--
-- members.sub_provider, sub_status, sub_cadence, sub_start_date: the provider, status, cadence
-- and start_date of the subscription it points at (null without one; prefixed, so no query that
-- joins the two tables reads a name twice), kept by triggers:
-- - a member that is inserted, or whose subscription_id or copies are set, takes its
--   subscription's values (BEFORE: whatever a writer puts there is replaced); it reads the
--   subscription FOR SHARE, so a change of it in flight is waited for and read as committed
--   (the lock migration 027 takes on the same writes);
-- - a subscription whose values change passes them on to its members (the members 027 already
--   locks on such a change), after the member's own writes in the same transaction.
-- The seed's bulk load runs with triggers off and writes the copies itself.
ALTER TABLE members ADD COLUMN sub_provider TEXT, ADD COLUMN sub_status TEXT,
  ADD COLUMN sub_cadence TEXT, ADD COLUMN sub_start_date TIMESTAMPTZ;

-- No trigger watches these columns, so the copy fires none of the roll-ups.
UPDATE members m SET sub_provider = s.provider, sub_status = s.status, sub_cadence = s.cadence,
       sub_start_date = s.start_date
  FROM subscriptions s WHERE s.id = m.subscription_id;

CREATE FUNCTION member_subscription_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s RECORD;
BEGIN
  SELECT provider, status, cadence, start_date INTO s FROM subscriptions
   WHERE id = NEW.subscription_id FOR SHARE;
  NEW.sub_provider := s.provider;
  NEW.sub_status := s.status;
  NEW.sub_cadence := s.cadence;
  NEW.sub_start_date := s.start_date;
  RETURN NEW;
END $$;

CREATE TRIGGER members_subscription_fill
  BEFORE INSERT OR UPDATE OF subscription_id, sub_provider, sub_status, sub_cadence, sub_start_date ON members
  FOR EACH ROW EXECUTE FUNCTION member_subscription_fill();

CREATE FUNCTION subscription_members_pass_on() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE members SET sub_provider = NEW.provider, sub_status = NEW.status, sub_cadence = NEW.cadence,
         sub_start_date = NEW.start_date
   WHERE subscription_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_members_pass_on
  AFTER UPDATE OF provider, status, cadence, start_date ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.cadence IS DISTINCT FROM NEW.cadence OR OLD.start_date IS DISTINCT FROM NEW.start_date)
  EXECUTE FUNCTION subscription_members_pass_on();

-- A start range reads its members off this index with the other copies, without their rows, and
-- the list sorted by start date reads it in order (ties: the subscription, then the member).
CREATE INDEX members_sub_start_date_idx ON members (sub_start_date, subscription_id, id)
  INCLUDE (sub_cadence, sub_provider, sub_status, mg_status, expires_at, updated_at);
ANALYZE members;
