-- Metrics and Integrated Tracking.
--
-- 1. isr_events: first-party sales tracking (the Integrated Tracking screen, specification §2/§3
--    "ISR event row"). One row per sale, rebill, refund or chargeback; amount_cents is negative for
--    refunds and chargebacks. Indexed for time ranges, every exact filter of GET /isr-events and the
--    free-text search (receipt, order id, affiliate, email, campaign).
-- 2. metrics_daily / metrics_daily_provider: daily roll-ups of subscription_events (new, renewal,
--    cancellation) that GET /metrics/overview reads instead of scanning the events. They are kept
--    exact by triggers (every insert, update, delete or truncate of subscription_events, and every
--    change of a subscription's provider, plan, source, status or currency), so any writer —
--    webhooks, refresh, the expiration job, tests — keeps them right without knowing about them.
--    metrics_rollup_rebuild() recomputes both from scratch (the seed calls it after bulk COPY).
-- 3. A covering index over subscriptions for the "current access" pies (index-only scan).

-- ---------------------------------------------------------------------------------------------
-- 1. ISR events
CREATE TABLE isr_events (
  id              BIGSERIAL PRIMARY KEY,
  -- Where the sale was tracked: 'clickbank', 'lemonsqueezy' or a custom lower-case source.
  source          TEXT NOT NULL CHECK (source ~ '^[a-z0-9][a-z0-9_.-]{0,39}$'),
  -- sale | rebill | refund | chargeback (refund and chargeback carry a negative amount).
  kind            TEXT NOT NULL DEFAULT 'sale' CHECK (kind IN ('sale', 'rebill', 'refund', 'chargeback')),
  order_id        TEXT,
  receipt         TEXT,
  product_id      TEXT,
  amount_cents    INTEGER NOT NULL,
  currency        TEXT NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  affiliate       TEXT,
  -- ClickBank TID (tracking id) or another sub-id.
  subid           TEXT,
  campaign        TEXT,
  customer_email  TEXT CHECK (customer_email IS NULL OR customer_email = lower(customer_email)),
  referrer        TEXT,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- The tracking payload as received.
  raw             JSONB NOT NULL DEFAULT '{}'::jsonb,
  CHECK ((kind IN ('refund', 'chargeback')) = (amount_cents < 0) OR amount_cents = 0)
);

-- Time ranges (summary, daily, affiliates, list newest first). The INCLUDE columns let the
-- aggregates run as index-only scans (no heap reads) over a range.
CREATE INDEX isr_events_time_idx ON isr_events (created_at DESC, id DESC)
  INCLUDE (source, currency, amount_cents, affiliate);
-- Exact filters of GET /isr-events, each with the list order as tie-breaker.
CREATE INDEX isr_events_source_time_idx ON isr_events (source, created_at DESC, id DESC);
CREATE INDEX isr_events_affiliate_time_idx ON isr_events (affiliate, created_at DESC, id DESC);
CREATE INDEX isr_events_subid_idx ON isr_events (subid, created_at DESC);
CREATE INDEX isr_events_receipt_idx ON isr_events (receipt);
CREATE INDEX isr_events_order_id_idx ON isr_events (order_id);

-- Free text (q): one lower-cased text of the five searched columns, joined by a unit separator
-- (U+001F, refused in q) so a match never spans two columns; a trigram index serves LIKE '%q%'.
CREATE FUNCTION isr_search_text(receipt TEXT, order_id TEXT, affiliate TEXT, customer_email TEXT, campaign TEXT)
  RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(concat_ws(E'\x1f', receipt, order_id, affiliate, customer_email, campaign))
$$;
CREATE INDEX isr_events_search_trgm_idx ON isr_events
  USING gin (isr_search_text(receipt, order_id, affiliate, customer_email, campaign) gin_trgm_ops);

-- ---------------------------------------------------------------------------------------------
-- 2. Metrics roll-ups of subscription_events
-- Key: UTC day, event type, and the subscription's provider, plan, source, status at present, and
-- the event's currency (the subscription's when the event has none). events = count, amount_cents
-- = sum of amounts (null amounts count 0).
CREATE TABLE metrics_daily (
  day           DATE NOT NULL,
  type          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  plan          TEXT NOT NULL,
  source        TEXT NOT NULL,
  status        TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, type, provider, plan, source, status, currency)
);
-- The same without plan/source/status: what an unfiltered (or provider-only) overview reads.
CREATE TABLE metrics_daily_provider (
  day           DATE NOT NULL,
  type          TEXT NOT NULL,
  provider      TEXT NOT NULL,
  currency      TEXT NOT NULL,
  events        INTEGER NOT NULL,
  amount_cents  BIGINT NOT NULL,
  PRIMARY KEY (day, type, provider, currency)
);

-- Filtered overviews read only their slice (the filters compare lower-cased plan and source).
CREATE INDEX metrics_daily_plan_idx ON metrics_daily (lower(plan), day);
CREATE INDEX metrics_daily_source_idx ON metrics_daily (lower(COALESCE(source, '')), day);
CREATE INDEX metrics_daily_status_idx ON metrics_daily (status, day);

-- Adds p_sign × (one event of p_type at p_at, amount p_amount) under the given subscription key.
CREATE FUNCTION metrics_rollup_add(p_sign INTEGER, p_at TIMESTAMPTZ, p_type TEXT, p_provider TEXT, p_plan TEXT,
                                   p_source TEXT, p_status TEXT, p_currency TEXT, p_amount INTEGER)
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d DATE := (p_at AT TIME ZONE 'UTC')::date;
BEGIN
  IF p_type NOT IN ('new', 'renewal', 'cancellation') THEN
    RETURN;
  END IF;
  INSERT INTO metrics_daily AS m (day, type, provider, plan, source, status, currency, events, amount_cents)
    VALUES (d, p_type, p_provider, p_plan, COALESCE(p_source, ''), p_status, p_currency, p_sign, p_sign * COALESCE(p_amount, 0))
    ON CONFLICT ON CONSTRAINT metrics_daily_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
  INSERT INTO metrics_daily_provider AS m (day, type, provider, currency, events, amount_cents)
    VALUES (d, p_type, p_provider, p_currency, p_sign, p_sign * COALESCE(p_amount, 0))
    ON CONFLICT ON CONSTRAINT metrics_daily_provider_pkey
    DO UPDATE SET events = m.events + EXCLUDED.events, amount_cents = m.amount_cents + EXCLUDED.amount_cents;
END $$;

CREATE FUNCTION metrics_rollup_event_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s subscriptions%ROWTYPE;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT * INTO s FROM subscriptions WHERE id = OLD.subscription_id;
    IF FOUND THEN
      PERFORM metrics_rollup_add(-1, OLD.occurred_at, OLD.type, s.provider, s.plan, s.source, s.status,
                                 COALESCE(OLD.currency, s.currency), OLD.amount_cents);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT * INTO s FROM subscriptions WHERE id = NEW.subscription_id;
    IF FOUND THEN
      PERFORM metrics_rollup_add(1, NEW.occurred_at, NEW.type, s.provider, s.plan, s.source, s.status,
                                 COALESCE(NEW.currency, s.currency), NEW.amount_cents);
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER subscription_events_metrics_rollup
  AFTER INSERT OR UPDATE OR DELETE ON subscription_events
  FOR EACH ROW EXECUTE FUNCTION metrics_rollup_event_trigger();

-- A subscription whose key columns change moves all its events to the new key.
CREATE FUNCTION metrics_rollup_subscription_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  e RECORD;
BEGIN
  FOR e IN SELECT occurred_at, type, currency, amount_cents FROM subscription_events
            WHERE subscription_id = NEW.id AND type IN ('new', 'renewal', 'cancellation') LOOP
    PERFORM metrics_rollup_add(-1, e.occurred_at, e.type, OLD.provider, OLD.plan, OLD.source, OLD.status,
                               COALESCE(e.currency, OLD.currency), e.amount_cents);
    PERFORM metrics_rollup_add(1, e.occurred_at, e.type, NEW.provider, NEW.plan, NEW.source, NEW.status,
                               COALESCE(e.currency, NEW.currency), e.amount_cents);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_metrics_rollup
  AFTER UPDATE OF provider, plan, source, status, currency ON subscriptions
  FOR EACH ROW
  WHEN (OLD.provider IS DISTINCT FROM NEW.provider OR OLD.plan IS DISTINCT FROM NEW.plan
        OR OLD.source IS DISTINCT FROM NEW.source OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.currency IS DISTINCT FROM NEW.currency)
  EXECUTE FUNCTION metrics_rollup_subscription_trigger();

CREATE FUNCTION metrics_rollup_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE metrics_daily, metrics_daily_provider;
  RETURN NULL;
END $$;

CREATE TRIGGER subscription_events_metrics_truncate
  AFTER TRUNCATE ON subscription_events
  FOR EACH STATEMENT EXECUTE FUNCTION metrics_rollup_truncate_trigger();

-- Recomputes both roll-ups from subscription_events (after a bulk load with triggers off).
CREATE FUNCTION metrics_rollup_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM metrics_daily;
  DELETE FROM metrics_daily_provider;
  INSERT INTO metrics_daily
    SELECT (e.occurred_at AT TIME ZONE 'UTC')::date, e.type, s.provider, s.plan, COALESCE(s.source, ''), s.status,
           COALESCE(e.currency, s.currency), count(*), COALESCE(sum(e.amount_cents), 0)
      FROM subscription_events e JOIN subscriptions s ON s.id = e.subscription_id
     WHERE e.type IN ('new', 'renewal', 'cancellation')
     GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO metrics_daily_provider
    SELECT day, type, provider, currency, sum(events), sum(amount_cents)
      FROM metrics_daily GROUP BY 1, 2, 3, 4;
END $$;

SELECT metrics_rollup_rebuild();

-- ---------------------------------------------------------------------------------------------
-- 3. Current access by provider and plan (pies, totalActive) and access at the start of a range
-- (churn) as an index-only scan of subscriptions.
CREATE INDEX subscriptions_metrics_access_idx ON subscriptions (status, ends_at)
  INCLUDE (provider, plan, source, start_date);
