-- Kept counts behind the totals of the Users and Subscriptions lists when their filters are the
-- broad ones (provider, provider status, cadence, and for Users mg_status): such a filter matches
-- up to every other row, and counting those matches on every page read up to a million index
-- entries and join probes per request (server/db/list.ts, "Kept totals").
--
--   list 'subscriptions': subscriptions per (provider, status, cadence); mg_status is '' and
--                         dated false;
--   list 'users':         members per (their subscription's provider, status, cadence; '' for a
--                         member without one), mg_status and dated (expires_at is set). The
--                         filters that depend on now (mg_status active or scheduled) add or take
--                         away the few active members whose expiry has passed, read off
--                         members_active_expiry_idx below (server/routes/users.ts).
--
-- Kept by row triggers whose deltas are folded at commit in key order (as migration 023's are), so
-- two commits take the count rows in the same order and hold them only while committing.
--
-- A member's key reads another table's row, its subscription, so each side must see the other's
-- concurrent change:
-- - a subscription change (provider, status, cadence) locks the members that point at it
--   (FOR NO KEY UPDATE) before reading them: if a member change is in flight, it waits for it and
--   reads the member as committed;
-- - a member that comes to point at a subscription (insert, or a new subscription_id) locks that
--   subscription FOR SHARE before reading it: if the subscription's change is in flight, it waits
--   for it and reads the subscription as committed;
-- - any other member change (mg_status, expires_at, or the subscription it leaves) reads the
--   subscription as committed without a lock: a subscription change that started first holds
--   the member's lock, so the member change waits for it; one that starts later waits for the
--   member change, then moves the member as committed.
-- No wait can close a cycle: a transaction that changes subscriptions changes one customer's
-- (a webhook or a reconciliation fix, under that customer's lock, subscription before member; the
-- provider refresh commits each subscription on its own), so it waits for at most that customer's
-- member, and access actions and the expiry job lock members only.

CREATE TABLE list_filter_counts (
  list       TEXT NOT NULL CHECK (list IN ('subscriptions', 'users')),
  provider   TEXT NOT NULL,
  status     TEXT NOT NULL,
  cadence    TEXT NOT NULL,
  mg_status  TEXT NOT NULL,
  dated      BOOLEAN NOT NULL,
  n          BIGINT NOT NULL,
  PRIMARY KEY (list, provider, status, cadence, mg_status, dated)
);

CREATE TABLE list_filter_counts_pending (
  list       TEXT NOT NULL,
  provider   TEXT NOT NULL,
  status     TEXT NOT NULL,
  cadence    TEXT NOT NULL,
  mg_status  TEXT NOT NULL,
  dated      BOOLEAN NOT NULL,
  n          INTEGER NOT NULL
);

-- Records `p_delta` members like `m` (its subscription_id, mg_status and whether expires_at is set),
-- at its subscription's committed columns (or this transaction's own change of them); `p_lock`
-- first waits for a change of that subscription in flight (see above).
CREATE FUNCTION list_filter_counts_member_add(m members, p_delta INTEGER, p_lock BOOLEAN)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_lock AND m.subscription_id IS NOT NULL THEN
    PERFORM 1 FROM subscriptions WHERE id = m.subscription_id FOR SHARE;
  END IF;
  INSERT INTO list_filter_counts_pending (list, provider, status, cadence, mg_status, dated, n)
    SELECT 'users', COALESCE(s.provider, ''), COALESCE(s.status, ''), COALESCE(s.cadence, ''),
           m.mg_status, m.expires_at IS NOT NULL, p_delta
      FROM (SELECT 1) one LEFT JOIN subscriptions s ON s.id = m.subscription_id;
END $$;

CREATE FUNCTION list_filter_counts_member_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM list_filter_counts_member_add(OLD, -1, false);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM list_filter_counts_member_add(
      NEW, 1, TG_OP = 'INSERT' OR OLD.subscription_id IS DISTINCT FROM NEW.subscription_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER members_list_filter_counts_insert_delete
  AFTER INSERT OR DELETE ON members
  FOR EACH ROW EXECUTE FUNCTION list_filter_counts_member_trigger();

CREATE TRIGGER members_list_filter_counts_update
  AFTER UPDATE OF subscription_id, mg_status, expires_at ON members
  FOR EACH ROW
  WHEN (OLD.subscription_id IS DISTINCT FROM NEW.subscription_id OR OLD.mg_status IS DISTINCT FROM NEW.mg_status
        OR (OLD.expires_at IS NULL) <> (NEW.expires_at IS NULL))
  EXECUTE FUNCTION list_filter_counts_member_trigger();

CREATE FUNCTION list_filter_counts_subscription_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  m RECORD;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO list_filter_counts_pending VALUES ('subscriptions', OLD.provider, OLD.status, OLD.cadence, '', false, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO list_filter_counts_pending VALUES ('subscriptions', NEW.provider, NEW.status, NEW.cadence, '', false, 1);
  END IF;
  -- A new subscription has no member yet, and a referenced one cannot be deleted (foreign key).
  IF TG_OP = 'UPDATE' THEN
    FOR m IN SELECT mg_status, expires_at IS NOT NULL AS dated FROM members
              WHERE subscription_id = NEW.id FOR NO KEY UPDATE LOOP
      INSERT INTO list_filter_counts_pending
        VALUES ('users', OLD.provider, OLD.status, OLD.cadence, m.mg_status, m.dated, -1),
               ('users', NEW.provider, NEW.status, NEW.cadence, m.mg_status, m.dated, 1);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_list_filter_counts_insert_delete
  AFTER INSERT OR DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION list_filter_counts_subscription_trigger();

CREATE TRIGGER subscriptions_list_filter_counts_update
  AFTER UPDATE OF provider, status, cadence ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.cadence IS DISTINCT FROM NEW.cadence)
  EXECUTE FUNCTION list_filter_counts_subscription_trigger();

-- Folds this transaction's pending deltas at commit, one upsert per key in key order; keys whose
-- deltas cancel out are not written.
CREATE FUNCTION list_filter_counts_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The first of the commit's firings folds every row; the others stop here.
  IF NOT EXISTS (SELECT 1 FROM list_filter_counts_pending) THEN
    RETURN NULL;
  END IF;
  WITH d AS (DELETE FROM list_filter_counts_pending RETURNING *)
  INSERT INTO list_filter_counts AS t (list, provider, status, cadence, mg_status, dated, n)
    SELECT list, provider, status, cadence, mg_status, dated, sum(n) FROM d
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ON CONSTRAINT list_filter_counts_pkey DO UPDATE SET n = t.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER list_filter_counts_pending_fold AFTER INSERT ON list_filter_counts_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_filter_counts_fold();

-- Recounts both lists (after a bulk load with triggers off, or a truncate).
CREATE FUNCTION list_filter_counts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_filter_counts_pending;
  DELETE FROM list_filter_counts;
  INSERT INTO list_filter_counts (list, provider, status, cadence, mg_status, dated, n)
    SELECT 'subscriptions', provider, status, cadence, '', false, count(*) FROM subscriptions GROUP BY 2, 3, 4;
  INSERT INTO list_filter_counts (list, provider, status, cadence, mg_status, dated, n)
    SELECT 'users', COALESCE(s.provider, ''), COALESCE(s.status, ''), COALESCE(s.cadence, ''), m.mg_status,
           m.expires_at IS NOT NULL, count(*)
      FROM members m LEFT JOIN subscriptions s ON s.id = m.subscription_id GROUP BY 2, 3, 4, 5, 6;
END $$;

CREATE FUNCTION list_filter_counts_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM list_filter_counts_rebuild();
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_list_filter_counts_truncate
  AFTER TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION list_filter_counts_truncate_trigger();

CREATE TRIGGER members_list_filter_counts_truncate
  AFTER TRUNCATE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION list_filter_counts_truncate_trigger();

SELECT list_filter_counts_rebuild();

-- A Users page sorted by expiry within an mg_status filter reads this index in order: ties of
-- expires_at (every null) are broken by id, as the list sorts them.
DROP INDEX members_status_expires_idx;
CREATE INDEX members_status_expires_idx ON members (mg_status, expires_at, id) INCLUDE (updated_at);

-- The active members' expiries, for the correction above: an expression index carries its own
-- statistics, so the planner knows that the active members whose expiry has passed are a few
-- hundred (the expiry job revokes them), where mg_status and expires_at apart suggest a hundred
-- thousand, and reads them off this index and probes their subscriptions, instead of hashing
-- every subscription a filter matches.
CREATE INDEX members_active_expiry_idx ON members ((CASE WHEN mg_status = 'active' THEN expires_at END));
ANALYZE members;
