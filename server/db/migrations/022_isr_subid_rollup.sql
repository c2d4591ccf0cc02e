-- ISR events per UTC day, source and subid, so the total of an events list filtered by subid (with
-- or without a source and a time range) sums days instead of counting every matching event
-- (GET /isr-events, server/routes/isr.ts). A common subid tags a large share of all traffic.
--
-- Only events with a subid have rows. Kept by statement triggers on isr_events (as isr_daily is,
-- migration 006), whose deltas are folded at commit (as migration 020 does for the others), and
-- rebuilt by isr_subid_rebuild() after a trigger-less bulk load.
CREATE TABLE isr_daily_subid (
  subid         TEXT NOT NULL,
  source        TEXT NOT NULL,
  day           DATE NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (subid, source, day)
);

CREATE TABLE isr_subid_pending (
  subid         TEXT NOT NULL,
  source        TEXT NOT NULL,
  day           DATE NOT NULL,
  events        BIGINT NOT NULL,
  amount        NUMERIC NOT NULL
);

-- One statement's changes: +1 per new row, −1 per old row, grouped by key.
CREATE FUNCTION isr_subid_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO isr_subid_pending (subid, source, day, events, amount)
      SELECT subid, source, (created_at AT TIME ZONE 'UTC')::date, count(*), COALESCE(sum(amount_cents), 0)
        FROM isr_new WHERE subid IS NOT NULL GROUP BY 1, 2, 3;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO isr_subid_pending (subid, source, day, events, amount)
      SELECT subid, source, (created_at AT TIME ZONE 'UTC')::date, -count(*), -COALESCE(sum(amount_cents), 0)
        FROM isr_old WHERE subid IS NOT NULL GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END $$;

-- Transition tables allow one event per trigger: three triggers share the function.
CREATE TRIGGER isr_events_subid_insert AFTER INSERT ON isr_events
  REFERENCING NEW TABLE AS isr_new
  FOR EACH STATEMENT EXECUTE FUNCTION isr_subid_trigger();
CREATE TRIGGER isr_events_subid_update AFTER UPDATE ON isr_events
  REFERENCING OLD TABLE AS isr_old NEW TABLE AS isr_new
  FOR EACH STATEMENT EXECUTE FUNCTION isr_subid_trigger();
CREATE TRIGGER isr_events_subid_delete AFTER DELETE ON isr_events
  REFERENCING OLD TABLE AS isr_old
  FOR EACH STATEMENT EXECUTE FUNCTION isr_subid_trigger();

-- Folds this transaction's pending deltas (the only ones it can see) at commit and drops the keys
-- left without events.
CREATE FUNCTION isr_subid_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (DELETE FROM isr_subid_pending RETURNING *)
  INSERT INTO isr_daily_subid AS m (subid, source, day, events, amount_cents)
    SELECT subid, source, day, sum(events), sum(amount)
      FROM d GROUP BY 1, 2, 3
    HAVING sum(events) <> 0 OR sum(amount) <> 0
    ON CONFLICT ON CONSTRAINT isr_daily_subid_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  DELETE FROM isr_daily_subid WHERE events = 0;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER isr_subid_pending_fold AFTER INSERT ON isr_subid_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION isr_subid_fold();

CREATE FUNCTION isr_subid_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE isr_daily_subid;
  DELETE FROM isr_subid_pending;
  RETURN NULL;
END $$;

CREATE TRIGGER isr_events_subid_truncate
  AFTER TRUNCATE ON isr_events
  FOR EACH STATEMENT EXECUTE FUNCTION isr_subid_truncate_trigger();

CREATE FUNCTION isr_subid_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM isr_subid_pending;
  DELETE FROM isr_daily_subid;
  INSERT INTO isr_daily_subid (subid, source, day, events, amount_cents)
    SELECT subid, source, (created_at AT TIME ZONE 'UTC')::date, count(*), COALESCE(sum(amount_cents), 0)
      FROM isr_events WHERE subid IS NOT NULL GROUP BY 1, 2, 3;
END $$;

SELECT isr_subid_rebuild();
