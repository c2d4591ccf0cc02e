-- The daily roll-ups of 005, 006 and 007 are applied when the transaction commits, not when its
-- row changes.
--
-- Every renewal of a day adds to the same roll-up rows (today, 'renewal', provider, currency …).
-- Updated by the row triggers at the change, those rows stayed locked until the change's whole
-- transaction committed (the ISR row, the live event, the inbox record came after), so under a
-- stream of webhooks every delivery waited for the one before it while holding a pool connection.
--
-- Now the triggers compute their deltas exactly as before (from the rows as they are at the
-- change) but append them to a pending table, which no one else's transaction sees or locks.
-- A deferred constraint trigger on that table folds the transaction's pending deltas into the
-- roll-ups at commit, so a roll-up row is locked only between that fold and the commit's end.
-- A reader in another transaction sees a change's events and their roll-up together, as before;
-- only the changing transaction itself reads its roll-ups before the fold (nothing does).

CREATE TABLE metrics_pending (
  day           DATE NOT NULL,
  type          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  plan          TEXT NOT NULL,
  source        TEXT NOT NULL,
  status        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL
);

CREATE OR REPLACE FUNCTION metrics_rollup_add(p_sign INTEGER, p_at TIMESTAMPTZ, p_type TEXT, p_provider TEXT, p_plan TEXT,
                                              p_source TEXT, p_status TEXT, p_currency TEXT, p_amount INTEGER)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_type NOT IN ('new', 'renewal', 'cancellation') THEN
    RETURN;
  END IF;
  INSERT INTO metrics_pending (day, type, provider, plan, source, status, currency, events, amount_cents)
    VALUES ((p_at AT TIME ZONE 'UTC')::date, p_type, p_provider, p_plan, COALESCE(p_source, ''), p_status,
            p_currency, p_sign, p_sign * COALESCE(p_amount, 0));
END $$;

-- Folds every pending delta this transaction can see (its own: other transactions' rows are
-- uncommitted, and every committed transaction has folded and deleted its own) into the four
-- roll-ups, one upsert per key.
CREATE FUNCTION metrics_rollup_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (DELETE FROM metrics_pending RETURNING *),
  a AS (
    INSERT INTO metrics_daily AS m (day, type, provider, plan, source, status, currency, events, amount_cents)
      SELECT day, type, provider, plan, source, status, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4, 5, 6, 7
      ON CONFLICT ON CONSTRAINT metrics_daily_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  ),
  b AS (
    INSERT INTO metrics_daily_provider AS m (day, type, provider, currency, events, amount_cents)
      SELECT day, type, provider, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4
      ON CONFLICT ON CONSTRAINT metrics_daily_provider_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  ),
  c AS (
    INSERT INTO metrics_daily_plan AS m (day, type, provider, plan, currency, events, amount_cents)
      SELECT day, type, provider, plan, currency, sum(events), sum(amount_cents)
        FROM d GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT ON CONSTRAINT metrics_daily_plan_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  )
  INSERT INTO metrics_daily_status AS m (day, type, provider, status, currency, events, amount_cents)
    SELECT day, type, provider, status, currency, sum(events), sum(amount_cents)
      FROM d GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT ON CONSTRAINT metrics_daily_status_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  RETURN NULL;
END $$;

-- Fires once per pending row at commit; the first folds them all, the others find none.
CREATE CONSTRAINT TRIGGER metrics_pending_fold AFTER INSERT ON metrics_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION metrics_rollup_fold();

-- A truncate or a rebuild starts from the events themselves: any delta still pending in this
-- transaction is already counted there (or gone with them).
CREATE OR REPLACE FUNCTION metrics_rollup_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE metrics_daily, metrics_daily_provider, metrics_daily_plan, metrics_daily_status;
  DELETE FROM metrics_pending;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION metrics_rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM metrics_pending;
  DELETE FROM metrics_daily;
  DELETE FROM metrics_daily_provider;
  DELETE FROM metrics_daily_plan;
  DELETE FROM metrics_daily_status;
  INSERT INTO metrics_daily
    SELECT (e.occurred_at AT TIME ZONE 'UTC')::date, e.type, s.provider, s.plan, COALESCE(s.source, ''), s.status,
           COALESCE(e.currency, s.currency), count(*), COALESCE(sum(e.amount_cents), 0)
      FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
     WHERE e.type IN ('new', 'renewal', 'cancellation')
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO metrics_daily_provider
    SELECT day, type, provider, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4;
  INSERT INTO metrics_daily_plan
    SELECT day, type, provider, plan, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO metrics_daily_status
    SELECT day, type, provider, status, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4, 5;
END $$;

-- The ISR roll-ups (006) the same way.
CREATE TABLE isr_pending (
  day        DATE NOT NULL,
  source     TEXT NOT NULL,
  affiliate  TEXT,
  currency   TEXT NOT NULL,
  events     BIGINT NOT NULL,
  amount     NUMERIC NOT NULL
);

CREATE OR REPLACE FUNCTION isr_rollup_apply(p_day DATE[], p_source TEXT[], p_affiliate TEXT[], p_currency TEXT[],
                                            p_events BIGINT[], p_amount NUMERIC[])
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_day IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO isr_pending (day, source, affiliate, currency, events, amount)
    SELECT * FROM unnest(p_day, p_source, p_affiliate, p_currency, p_events, p_amount);
END $$;

CREATE FUNCTION isr_rollup_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (DELETE FROM isr_pending RETURNING *),
  a AS (
    INSERT INTO isr_daily AS m (day, source, currency, events, amount_cents)
      SELECT day, source, currency, sum(events), sum(amount)
        FROM d GROUP BY 1, 2, 3
      HAVING sum(events) <> 0 OR sum(amount) <> 0
      ON CONFLICT ON CONSTRAINT isr_daily_pkey
      DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents
  )
  INSERT INTO isr_daily_affiliate AS m (day, affiliate, currency, events, amount_cents)
    SELECT day, affiliate, currency, sum(events), sum(amount)
      FROM d WHERE affiliate IS NOT NULL AND affiliate <> ''
     GROUP BY 1, 2, 3
    HAVING sum(events) <> 0 OR sum(amount) <> 0
    ON CONFLICT ON CONSTRAINT isr_daily_affiliate_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  -- A separate statement sees the upserts above (a CTE's siblings do not).
  DELETE FROM isr_daily WHERE events = 0;
  DELETE FROM isr_daily_affiliate WHERE events = 0;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER isr_pending_fold AFTER INSERT ON isr_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION isr_rollup_fold();

CREATE OR REPLACE FUNCTION isr_rollup_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE isr_daily, isr_daily_affiliate;
  DELETE FROM isr_pending;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION isr_rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM isr_pending;
  DELETE FROM isr_daily;
  DELETE FROM isr_daily_affiliate;
  INSERT INTO isr_daily
    SELECT (created_at AT TIME ZONE 'UTC')::date, source, currency, count(*), sum(amount_cents)
      FROM isr_events GROUP BY 1, 2, 3;
  INSERT INTO isr_daily_affiliate
    SELECT (created_at AT TIME ZONE 'UTC')::date, affiliate, currency, count(*), sum(amount_cents)
      FROM isr_events WHERE affiliate IS NOT NULL AND affiliate <> '' GROUP BY 1, 2, 3;
END $$;
