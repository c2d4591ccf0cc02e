-- Daily roll-ups of isr_events, so the ISR endpoints' cost follows the days of a range, not the
-- number of events in it.
--
-- GET /isr-metrics/summary, /daily and /affiliates read these instead of scanning isr_events for
-- every whole UTC day of their range (server/routes/isr.ts; partial edge days still read raw rows).
--
-- isr_daily:           UTC day × source × currency → events (count), amount_cents (sum, net).
-- isr_daily_affiliate: UTC day × affiliate × currency, for rows with a non-blank affiliate only
--                      (what the affiliates endpoint counts).
--
-- Both are kept exact by statement-level triggers on isr_events (INSERT, UPDATE, DELETE with
-- transition tables, and TRUNCATE), so every writer keeps them right without knowing about them,
-- and a bulk INSERT … SELECT costs one grouped upsert, not one per row. A key whose events reach 0
-- is deleted, so the roll-ups hold exactly the groups the raw rows have. isr_rollup_rebuild()
-- recomputes both from scratch (the seed calls it after its trigger-less COPY).

CREATE TABLE isr_daily (
  day           DATE NOT NULL,
  source        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, source, currency)
);

CREATE TABLE isr_daily_affiliate (
  day           DATE NOT NULL,
  affiliate     TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, affiliate, currency)
);

-- Emptied keys are found (and deleted) through these without scanning the roll-ups.
CREATE INDEX isr_daily_empty_idx ON isr_daily (day) WHERE events = 0;
CREATE INDEX isr_daily_affiliate_empty_idx ON isr_daily_affiliate (day) WHERE events = 0;

-- Adds signed per-(day, source, affiliate, currency) deltas (parallel arrays, as aggregated by
-- isr_rollup_trigger) to both roll-ups, then drops the keys left without events.
CREATE FUNCTION isr_rollup_apply(p_day DATE[], p_source TEXT[], p_affiliate TEXT[], p_currency TEXT[],
                                 p_events BIGINT[], p_amount NUMERIC[])
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_day IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO isr_daily AS m (day, source, currency, events, amount_cents)
    SELECT day, source, currency, sum(events), sum(amount)
      FROM unnest(p_day, p_source, p_affiliate, p_currency, p_events, p_amount)
           AS d(day, source, affiliate, currency, events, amount)
     GROUP BY 1, 2, 3
    HAVING sum(events) <> 0 OR sum(amount) <> 0
    ON CONFLICT ON CONSTRAINT isr_daily_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  INSERT INTO isr_daily_affiliate AS m (day, affiliate, currency, events, amount_cents)
    SELECT day, affiliate, currency, sum(events), sum(amount)
      FROM unnest(p_day, p_source, p_affiliate, p_currency, p_events, p_amount)
           AS d(day, source, affiliate, currency, events, amount)
     WHERE affiliate IS NOT NULL AND affiliate <> ''
     GROUP BY 1, 2, 3
    HAVING sum(events) <> 0 OR sum(amount) <> 0
    ON CONFLICT ON CONSTRAINT isr_daily_affiliate_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  DELETE FROM isr_daily WHERE events = 0;
  DELETE FROM isr_daily_affiliate WHERE events = 0;
END $$;

-- One statement's changes: +1 per new row, −1 per old row, grouped by key. An UPDATE touching no
-- key column (day, source, affiliate, currency, amount) nets to zero and changes nothing.
CREATE FUNCTION isr_rollup_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM isr_rollup_apply(array_agg(day), array_agg(source), array_agg(affiliate), array_agg(currency),
                             array_agg(events), array_agg(amount))
       FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, source, affiliate, currency,
                    count(*) AS events, sum(amount_cents)::numeric AS amount
               FROM isr_new GROUP BY 1, 2, 3, 4) d;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM isr_rollup_apply(array_agg(day), array_agg(source), array_agg(affiliate), array_agg(currency),
                             array_agg(events), array_agg(amount))
       FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, source, affiliate, currency,
                    -count(*) AS events, -sum(amount_cents)::numeric AS amount
               FROM isr_old GROUP BY 1, 2, 3, 4) d;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM isr_rollup_apply(array_agg(day), array_agg(source), array_agg(affiliate), array_agg(currency),
                             array_agg(events), array_agg(amount))
       FROM (SELECT day, source, affiliate, currency, sum(sign) AS events, sum(sign * amount_cents)::numeric AS amount
               FROM (SELECT 1 AS sign, (created_at AT TIME ZONE 'UTC')::date AS day, source, affiliate, currency, amount_cents
                       FROM isr_new
                     UNION ALL
                     SELECT -1, (created_at AT TIME ZONE 'UTC')::date, source, affiliate, currency, amount_cents
                       FROM isr_old) x
              GROUP BY 1, 2, 3, 4
             HAVING sum(sign) <> 0 OR sum(sign * amount_cents) <> 0) d;
  END IF;
  RETURN NULL;
END $$;

-- Transition tables allow one event per trigger: three triggers share the function.
CREATE TRIGGER isr_events_rollup_insert AFTER INSERT ON isr_events
  REFERENCING NEW TABLE AS isr_new
  FOR EACH STATEMENT EXECUTE FUNCTION isr_rollup_trigger();
CREATE TRIGGER isr_events_rollup_update AFTER UPDATE ON isr_events
  REFERENCING OLD TABLE AS isr_old NEW TABLE AS isr_new
  FOR EACH STATEMENT EXECUTE FUNCTION isr_rollup_trigger();
CREATE TRIGGER isr_events_rollup_delete AFTER DELETE ON isr_events
  REFERENCING OLD TABLE AS isr_old
  FOR EACH STATEMENT EXECUTE FUNCTION isr_rollup_trigger();

CREATE FUNCTION isr_rollup_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE isr_daily, isr_daily_affiliate;
  RETURN NULL;
END $$;

CREATE TRIGGER isr_events_rollup_truncate
  AFTER TRUNCATE ON isr_events
  FOR EACH STATEMENT EXECUTE FUNCTION isr_rollup_truncate_trigger();

-- Recomputes both roll-ups from isr_events (after a bulk load with triggers off).
CREATE FUNCTION isr_rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM isr_daily;
  DELETE FROM isr_daily_affiliate;
  INSERT INTO isr_daily
    SELECT (created_at AT TIME ZONE 'UTC')::date, source, currency, count(*), sum(amount_cents)
      FROM isr_events GROUP BY 1, 2, 3;
  INSERT INTO isr_daily_affiliate
    SELECT (created_at AT TIME ZONE 'UTC')::date, affiliate, currency, count(*), sum(amount_cents)
      FROM isr_events WHERE affiliate IS NOT NULL AND affiliate <> '' GROUP BY 1, 2, 3;
END $$;

SELECT isr_rollup_rebuild();
