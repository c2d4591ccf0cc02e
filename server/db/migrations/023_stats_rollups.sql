-- The dashboard figures of GET /stats and GET /status (server/stats/aggregate.ts) from roll-ups,
-- instead of reading every subscription on each computation.
--
-- Current access at an instant `now` is a provider status that grants it on its own (active,
-- trialing, past_due: ACCESS_STATUSES of server/vocabulary.ts), or 'cancelled' with ends_at after
-- now. A subscription's end, for the days-left figure, is its member's earliest scheduled expiry,
-- else its ends_at, else its current_period_end. The figures split into sums over subscriptions
-- that do not depend on now, kept here, and small remainders read from indexes:
--   access groups = Σ stats_access_groups rows of the access statuses
--                   + cancelled subscriptions with ends_at > now (subscriptions_stats_cancelled_idx);
--   days left     = with a subscription's own end E = COALESCE(ends_at, current_period_end):
--                     for the access statuses, Σ (end_micros − n × now) over stats_access_days
--                     after now's UTC day + Σ (E − now) over E later today (subscriptions_stats_end_idx);
--                     for the cancelled ones, Σ (ends_at − now), read with them;
--                     + for the few subscriptions with access whose member's expiry overrides E,
--                     the difference (members_stats_expiry_idx, then one probe of
--                     subscriptions_stats_slice_idx of migration 013 each);
--   customers that ever subscribed = stats_totals 'subscribed_customers'.
-- The roll-ups depend on subscription rows alone, so a member change never touches them.
--
-- Kept by row triggers on subscriptions whose deltas are folded at commit, as the daily roll-ups
-- are (migration 020). stats_subscribed_customers counts each customer's subscriptions (its
-- upsert makes a concurrent first subscription of the same customer wait, then see this one); a
-- count going 0 → 1 or 1 → 0 moves the total. Rows that come to nothing stay: they add zero.

-- Per (status, currency, cadence): subscriptions, Σ amount_cents (null counts 0), and how many
-- have an end of their own (E not null).
CREATE TABLE stats_access_groups (
  status        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  cadence       TEXT NOT NULL,
  n             BIGINT NOT NULL,
  amount_cents  BIGINT NOT NULL,
  dated         BIGINT NOT NULL,
  PRIMARY KEY (status, currency, cadence)
);

-- Per (status, UTC day of E): subscriptions, and Σ E in microseconds since the epoch (exact).
CREATE TABLE stats_access_days (
  status      TEXT NOT NULL,
  end_day     DATE NOT NULL,
  n           BIGINT NOT NULL,
  end_micros  NUMERIC NOT NULL,
  PRIMARY KEY (status, end_day)
);

CREATE TABLE stats_subscribed_customers (
  customer_id    BIGINT PRIMARY KEY,
  subscriptions  INTEGER NOT NULL
);

CREATE TABLE stats_totals (
  name  TEXT PRIMARY KEY,
  n     BIGINT NOT NULL
);

-- kind 'access': a subscription counted (+1) or taken away (−1); kind 'customers': the
-- subscribed-customer total's delta (status, currency, cadence are '').
CREATE TABLE stats_pending (
  kind          TEXT NOT NULL,
  status        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  cadence       TEXT NOT NULL,
  end_day       DATE,
  n             INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  dated         INTEGER NOT NULL,
  end_micros    NUMERIC NOT NULL
);

-- The remainders' indexes: E later today for the access statuses, and the cancelled
-- subscriptions paid until a future ends_at with what the figures read.
CREATE INDEX subscriptions_stats_end_idx ON subscriptions ((COALESCE(ends_at, current_period_end)))
  INCLUDE (status, ends_at, current_period_end) WHERE COALESCE(ends_at, current_period_end) IS NOT NULL;
CREATE INDEX subscriptions_stats_cancelled_idx ON subscriptions (ends_at)
  INCLUDE (currency, cadence, amount_cents) WHERE status = 'cancelled';

CREATE FUNCTION stats_access_add(p_sign INTEGER, s subscriptions) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  e TIMESTAMPTZ := COALESCE(s.ends_at, s.current_period_end);
BEGIN
  INSERT INTO stats_pending (kind, status, currency, cadence, end_day, n, amount_cents, dated, end_micros)
    VALUES ('access', s.status, s.currency, s.cadence, (e AT TIME ZONE 'UTC')::date, p_sign,
            p_sign * COALESCE(s.amount_cents, 0), CASE WHEN e IS NULL THEN 0 ELSE p_sign END,
            COALESCE(p_sign * extract(epoch FROM e) * 1000000, 0));
END $$;

CREATE FUNCTION stats_customer_add(p_sign INTEGER, p_customer BIGINT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  after_change INTEGER;
BEGIN
  INSERT INTO stats_subscribed_customers AS c (customer_id, subscriptions) VALUES (p_customer, p_sign)
    ON CONFLICT (customer_id) DO UPDATE SET subscriptions = c.subscriptions + p_sign
    RETURNING subscriptions INTO after_change;
  IF (p_sign > 0 AND after_change = 1) OR (p_sign < 0 AND after_change = 0) THEN
    INSERT INTO stats_pending (kind, status, currency, cadence, end_day, n, amount_cents, dated, end_micros)
      VALUES ('customers', '', '', '', NULL, p_sign, 0, 0, 0);
  END IF;
END $$;

CREATE FUNCTION stats_subscription_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM stats_access_add(-1, OLD);
    IF TG_OP = 'DELETE' OR OLD.customer_id IS DISTINCT FROM NEW.customer_id THEN
      PERFORM stats_customer_add(-1, OLD.customer_id);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM stats_access_add(1, NEW);
    IF TG_OP = 'INSERT' OR OLD.customer_id IS DISTINCT FROM NEW.customer_id THEN
      PERFORM stats_customer_add(1, NEW.customer_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_stats_insert_delete
  AFTER INSERT OR DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION stats_subscription_trigger();

CREATE TRIGGER subscriptions_stats_update
  AFTER UPDATE OF customer_id, status, currency, cadence, amount_cents, ends_at, current_period_end ON subscriptions
  FOR EACH ROW
  WHEN (OLD.customer_id IS DISTINCT FROM NEW.customer_id OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.cadence IS DISTINCT FROM NEW.cadence
        OR OLD.amount_cents IS DISTINCT FROM NEW.amount_cents OR OLD.ends_at IS DISTINCT FROM NEW.ends_at
        OR OLD.current_period_end IS DISTINCT FROM NEW.current_period_end)
  EXECUTE FUNCTION stats_subscription_trigger();

-- Folds this transaction's pending deltas (the only ones it can see) at commit, one upsert per
-- key, in key order so two commits take the roll-up rows in the same order. A key whose deltas
-- cancel out is not written: a renewal moves its subscription from one end day to another and
-- leaves its (status, currency, cadence) row, which every renewal shares, alone.
CREATE FUNCTION stats_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The first of the commit's firings folds every row; the others stop here.
  IF NOT EXISTS (SELECT 1 FROM stats_pending) THEN
    RETURN NULL;
  END IF;
  WITH d AS (DELETE FROM stats_pending RETURNING *),
  g AS (
    INSERT INTO stats_access_groups AS t (status, currency, cadence, n, amount_cents, dated)
      SELECT status, currency, cadence, sum(n), sum(amount_cents), sum(dated)
        FROM d WHERE kind = 'access' GROUP BY 1, 2, 3
      HAVING sum(n) <> 0 OR sum(amount_cents) <> 0 OR sum(dated) <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ON CONSTRAINT stats_access_groups_pkey
      DO UPDATE SET n = t.n + EXCLUDED.n, amount_cents = t.amount_cents + EXCLUDED.amount_cents,
                    dated = t.dated + EXCLUDED.dated
  ),
  days AS (
    INSERT INTO stats_access_days AS t (status, end_day, n, end_micros)
      SELECT status, end_day, sum(n), sum(end_micros)
        FROM d WHERE kind = 'access' AND end_day IS NOT NULL GROUP BY 1, 2
      HAVING sum(n) <> 0 OR sum(end_micros) <> 0 ORDER BY 1, 2
      ON CONFLICT ON CONSTRAINT stats_access_days_pkey
      DO UPDATE SET n = t.n + EXCLUDED.n, end_micros = t.end_micros + EXCLUDED.end_micros
  )
  INSERT INTO stats_totals AS t (name, n)
    SELECT 'subscribed_customers', sum(n) FROM d WHERE kind = 'customers' HAVING count(*) > 0
    ON CONFLICT (name) DO UPDATE SET n = t.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Fires once per pending row at commit; the first folds them all, the others find none.
CREATE CONSTRAINT TRIGGER stats_pending_fold AFTER INSERT ON stats_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stats_fold();

-- Recomputes every table from the subscriptions (after a bulk load with triggers off, or a truncate).
CREATE FUNCTION stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_pending;
  DELETE FROM stats_access_groups;
  DELETE FROM stats_access_days;
  DELETE FROM stats_subscribed_customers;
  DELETE FROM stats_totals;
  INSERT INTO stats_access_groups (status, currency, cadence, n, amount_cents, dated)
    SELECT status, currency, cadence, count(*), COALESCE(sum(amount_cents), 0),
           count(COALESCE(ends_at, current_period_end))
      FROM subscriptions GROUP BY 1, 2, 3;
  INSERT INTO stats_access_days (status, end_day, n, end_micros)
    SELECT status, (COALESCE(ends_at, current_period_end) AT TIME ZONE 'UTC')::date, count(*),
           sum(extract(epoch FROM COALESCE(ends_at, current_period_end)) * 1000000)
      FROM subscriptions WHERE COALESCE(ends_at, current_period_end) IS NOT NULL GROUP BY 1, 2;
  INSERT INTO stats_subscribed_customers (customer_id, subscriptions)
    SELECT customer_id, count(*) FROM subscriptions GROUP BY 1;
  INSERT INTO stats_totals (name, n)
    SELECT 'subscribed_customers', count(*) FROM stats_subscribed_customers;
END $$;

CREATE FUNCTION stats_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stats_rebuild();
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_stats_truncate
  AFTER TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION stats_truncate_trigger();

SELECT stats_rebuild();
ANALYZE subscriptions;
ANALYZE stats_access_days;
ANALYZE stats_subscribed_customers;
