-- Subscriptions counted by the month they start and the month they end, for the access figures of
-- GET /metrics/overview (totalActive, the pies, activeAtStart) without reading every subscription.
--
-- The figures depend on an instant (now, the range's first midnight F), so they cannot be stored
-- whole. They split into a part that is a sum over whole months, kept here, and a remainder of at
-- most one month of rows, read from covering indexes (server/routes/metrics.ts):
--   access now    = Σ 'start' rows with an access status (every month)
--                   + cancelled subscriptions whose ends_at is after now (subscriptions_metrics_access_idx);
--   access at F   = subscriptions started before F and not ended by F, paused left out
--                 = Σ 'start' rows of months before F's month + starts in [month(F), F)
--                   − Σ 'end' rows of months before F's month − ends in [month(F), F]
--                   − subscriptions that end at or before they start and start before F.
-- An 'end' row counts a subscription whose ends_at is after its start_date: such an end at or
-- before F implies a start before F. The rare one that ends at or before its start has no 'end'
-- row and is read from its own partial index.
--
-- Kept by a row trigger on subscriptions, folded at commit as the daily roll-ups are (migration 020).
CREATE TABLE subscription_months (
  kind      TEXT NOT NULL CHECK (kind IN ('start', 'end')),
  month     DATE NOT NULL,
  provider  TEXT NOT NULL,
  plan      TEXT NOT NULL,
  status    TEXT NOT NULL,
  source    TEXT NOT NULL,
  n         BIGINT NOT NULL,
  PRIMARY KEY (kind, month, provider, plan, status, source)
);

CREATE TABLE subscription_months_pending (
  kind      TEXT NOT NULL,
  month     DATE NOT NULL,
  provider  TEXT NOT NULL,
  plan      TEXT NOT NULL,
  status    TEXT NOT NULL,
  source    TEXT NOT NULL,
  n         INTEGER NOT NULL
);

-- The remainders' covering indexes (index-only scans of at most a month of rows).
CREATE INDEX subscriptions_start_cover_idx ON subscriptions (start_date)
  INCLUDE (provider, plan, status, source);
CREATE INDEX subscriptions_end_cover_idx ON subscriptions (ends_at)
  INCLUDE (provider, plan, status, source, start_date) WHERE ends_at IS NOT NULL;
CREATE INDEX subscriptions_ends_unordered_idx ON subscriptions (start_date)
  INCLUDE (provider, plan, status, source) WHERE ends_at <= start_date;
-- The per-plan access scan it served is gone.
DROP INDEX IF EXISTS subscriptions_metrics_plan_access_idx;

CREATE FUNCTION subscription_months_add(p_sign INTEGER, s subscriptions) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO subscription_months_pending (kind, month, provider, plan, status, source, n)
    VALUES ('start', date_trunc('month', s.start_date AT TIME ZONE 'UTC')::date, s.provider, s.plan, s.status,
            COALESCE(s.source, ''), p_sign);
  IF s.ends_at > s.start_date THEN
    INSERT INTO subscription_months_pending (kind, month, provider, plan, status, source, n)
      VALUES ('end', date_trunc('month', s.ends_at AT TIME ZONE 'UTC')::date, s.provider, s.plan, s.status,
              COALESCE(s.source, ''), p_sign);
  END IF;
END $$;

CREATE FUNCTION subscription_months_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM subscription_months_add(-1, OLD);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM subscription_months_add(1, NEW);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_months_insert_delete
  AFTER INSERT OR DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION subscription_months_trigger();

CREATE TRIGGER subscriptions_months_update
  AFTER UPDATE OF provider, plan, status, source, start_date, ends_at ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.plan IS DISTINCT FROM NEW.plan
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.source IS DISTINCT FROM NEW.source
        OR OLD.start_date IS DISTINCT FROM NEW.start_date OR OLD.ends_at IS DISTINCT FROM NEW.ends_at)
  EXECUTE FUNCTION subscription_months_trigger();

-- Folds this transaction's pending deltas (the only ones it can see) at commit, one upsert per key,
-- and drops the keys that came to nothing.
CREATE FUNCTION subscription_months_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (DELETE FROM subscription_months_pending RETURNING *)
  INSERT INTO subscription_months AS m (kind, month, provider, plan, status, source, n)
    SELECT kind, month, provider, plan, status, source, sum(n)
      FROM d GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(n) <> 0
    ON CONFLICT ON CONSTRAINT subscription_months_pkey DO UPDATE SET n = m.n + EXCLUDED.n;
  DELETE FROM subscription_months WHERE n = 0;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER subscription_months_pending_fold AFTER INSERT ON subscription_months_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION subscription_months_fold();

CREATE FUNCTION subscription_months_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE subscription_months;
  DELETE FROM subscription_months_pending;
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_months_truncate
  AFTER TRUNCATE ON subscriptions
  FOR EACH STATEMENT EXECUTE FUNCTION subscription_months_truncate_trigger();

-- Recomputes the table from the subscriptions (after a bulk load with triggers off).
CREATE FUNCTION subscription_months_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM subscription_months_pending;
  DELETE FROM subscription_months;
  INSERT INTO subscription_months (kind, month, provider, plan, status, source, n)
    SELECT 'start', date_trunc('month', start_date AT TIME ZONE 'UTC')::date, provider, plan, status,
           COALESCE(source, ''), count(*)
      FROM subscriptions GROUP BY 2, 3, 4, 5, 6
    UNION ALL
    SELECT 'end', date_trunc('month', ends_at AT TIME ZONE 'UTC')::date, provider, plan, status,
           COALESCE(source, ''), count(*)
      FROM subscriptions WHERE ends_at > start_date GROUP BY 2, 3, 4, 5, 6;
END $$;

SELECT subscription_months_rebuild();
