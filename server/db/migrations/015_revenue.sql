-- Revenue analytics: the MRR history of every subscription, its movements and their roll-ups
-- (docs/metrics.md defines every figure; docs/api.md "Revenue" the endpoints).
--
-- 1. revenue_spans: the history. One row per stretch of time in which a subscription recurs at
--    one monthly value under one key (customer, provider, plan, cadence, currency):
--    [valid_from, valid_to), valid_to null = still recurring. mrr_twelfths is the monthly value in
--    twelfths of a cent of the span's currency (monthly: 12 × amount_cents; yearly: amount_cents),
--    so a yearly plan's amount / 12 stays an exact integer. Only spans with a positive value are
--    kept: trials, paused, unpaid and expired subscriptions and those without an amount recur at 0.
--    A trigger on subscriptions writes the history in the transaction of every change of status,
--    ends_at, amount, cadence, plan, currency, provider or customer, effective at the row's
--    updated_at (the provider's time of the change): webhooks, the access refresh, the expiration
--    job and tests keep it without knowing about it. The seed writes its spans directly.
-- 2. revenue_movements: each change point of a span as signed per-subscription deltas, classified
--    from the whole customer (new, expansion, contraction, churn, reactivation), recomputed for one
--    customer whenever one of its spans changes.
-- 3. revenue_daily and revenue_cohort_monthly: roll-ups of revenue_movements that
--    GET /metrics/revenue and GET /metrics/cohorts read, kept by the same recomputation.
-- revenue_rebuild() recomputes 2 and 3 from the spans (after the seed's bulk COPY).

-- ---------------------------------------------------------------------------------------------
-- 1. The history
CREATE TABLE revenue_spans (
  id               BIGSERIAL PRIMARY KEY,
  subscription_id  BIGINT NOT NULL REFERENCES subscriptions(id),
  customer_id      BIGINT NOT NULL,
  provider         TEXT NOT NULL,
  plan             TEXT NOT NULL,
  cadence          TEXT NOT NULL,
  currency         TEXT NOT NULL,
  mrr_twelfths     BIGINT NOT NULL CHECK (mrr_twelfths > 0),
  valid_from       TIMESTAMPTZ NOT NULL,
  valid_to         TIMESTAMPTZ,
  CHECK (valid_to IS NULL OR valid_to > valid_from)
);
CREATE INDEX revenue_spans_sub_from_idx ON revenue_spans (subscription_id, valid_from);
CREATE INDEX revenue_spans_sub_to_idx ON revenue_spans (subscription_id, valid_to);
CREATE INDEX revenue_spans_customer_idx ON revenue_spans (customer_id, valid_from);
-- Customers recurring at an instant (customers at the start and end of a range).
CREATE INDEX revenue_spans_time_idx ON revenue_spans (valid_from)
  INCLUDE (valid_to, customer_id, provider, plan, cadence);

-- ---------------------------------------------------------------------------------------------
-- 2. Movements
-- kind_alone: the movement of this piece on its own. A change of plan, cadence or currency on a
-- live subscription is two pieces (−old value under the old key, +new value under the new key);
-- when a filter keeps both (paired, and other_plan / other_cadence pass it too) they are one net
-- change of the subscription and both read kind_net; a filter keeping one reads it alone
-- (contraction of the old plan, expansion into the new one). flip: +1 on the piece that turns a
-- customer's MRR on (new, reactivation), −1 on the piece that turns it off (churn), else 0.
-- cohort: first day of the UTC month of the customer's first span; cohort_provider its provider.
CREATE TABLE revenue_movements (
  id               BIGSERIAL PRIMARY KEY,
  subscription_id  BIGINT NOT NULL REFERENCES subscriptions(id),
  customer_id      BIGINT NOT NULL,
  at               TIMESTAMPTZ NOT NULL,
  provider         TEXT NOT NULL,
  plan             TEXT NOT NULL,
  cadence          TEXT NOT NULL,
  currency         TEXT NOT NULL,
  kind_alone       TEXT NOT NULL CHECK (kind_alone IN ('new', 'expansion', 'contraction', 'churn', 'reactivation')),
  kind_net         TEXT NOT NULL CHECK (kind_net IN ('new', 'expansion', 'contraction', 'churn', 'reactivation')),
  paired           BOOLEAN NOT NULL,
  other_plan       TEXT NOT NULL,
  other_cadence    TEXT NOT NULL,
  delta_twelfths   BIGINT NOT NULL,
  flip             SMALLINT NOT NULL,
  cohort           DATE NOT NULL,
  cohort_provider  TEXT NOT NULL
);
CREATE INDEX revenue_movements_customer_idx ON revenue_movements (customer_id);
CREATE INDEX revenue_movements_time_idx ON revenue_movements (at)
  INCLUDE (customer_id, provider, plan, cadence, currency, kind_alone, kind_net, paired, other_plan,
           other_cadence, delta_twelfths);

-- ---------------------------------------------------------------------------------------------
-- 3. Roll-ups: revenue_daily is revenue_movements grouped by UTC day and every column a filter or
-- a kind reads; revenue_cohort_monthly is it grouped by cohort, cohort provider, UTC month of the
-- change and currency (delta and flip sums, plus the 'new' pieces: the cohort's size and its
-- starting MRR).
CREATE TABLE revenue_daily (
  day             DATE NOT NULL,
  provider        TEXT NOT NULL,
  plan            TEXT NOT NULL,
  cadence         TEXT NOT NULL,
  currency        TEXT NOT NULL,
  kind_alone      TEXT NOT NULL,
  kind_net        TEXT NOT NULL,
  paired          BOOLEAN NOT NULL,
  other_plan      TEXT NOT NULL,
  other_cadence   TEXT NOT NULL,
  delta_twelfths  BIGINT NOT NULL,
  pieces          INTEGER NOT NULL,
  PRIMARY KEY (day, provider, plan, cadence, currency, kind_alone, kind_net, paired, other_plan, other_cadence)
);
CREATE TABLE revenue_cohort_monthly (
  cohort           DATE NOT NULL,
  cohort_provider  TEXT NOT NULL,
  month            DATE NOT NULL,
  currency         TEXT NOT NULL,
  delta_twelfths   BIGINT NOT NULL,
  flips            INTEGER NOT NULL,
  new_customers    INTEGER NOT NULL,
  new_twelfths     BIGINT NOT NULL,
  PRIMARY KEY (cohort, cohort_provider, month, currency)
);

-- Adds p_sign × the movements of the customers selected by `cond` (a condition on alias m) into
-- both roll-ups.
CREATE FUNCTION revenue_rollup_add(p_sign INTEGER, cond TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO revenue_daily AS r
      SELECT (m.at AT TIME ZONE 'UTC')::date, m.provider, m.plan, m.cadence, m.currency, m.kind_alone,
             m.kind_net, m.paired, m.other_plan, m.other_cadence, %1$s * sum(m.delta_twelfths), %1$s * count(*)
        FROM revenue_movements m WHERE %2$s
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    ON CONFLICT ON CONSTRAINT revenue_daily_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths, pieces = r.pieces + EXCLUDED.pieces
  $q$, p_sign, cond);
  EXECUTE format($q$
    INSERT INTO revenue_cohort_monthly AS r
      SELECT m.cohort, m.cohort_provider, date_trunc('month', m.at AT TIME ZONE 'UTC')::date, m.currency,
             %1$s * sum(m.delta_twelfths), %1$s * sum(m.flip),
             %1$s * count(*) FILTER (WHERE m.kind_alone = 'new' AND m.flip = 1),
             %1$s * COALESCE(sum(m.delta_twelfths) FILTER (WHERE m.kind_alone = 'new'), 0)
        FROM revenue_movements m WHERE %2$s
       GROUP BY 1, 2, 3, 4
    ON CONFLICT ON CONSTRAINT revenue_cohort_monthly_pkey DO UPDATE
      SET delta_twelfths = r.delta_twelfths + EXCLUDED.delta_twelfths, flips = r.flips + EXCLUDED.flips,
          new_customers = r.new_customers + EXCLUDED.new_customers,
          new_twelfths = r.new_twelfths + EXCLUDED.new_twelfths
  $q$, p_sign, cond);
  DELETE FROM revenue_daily WHERE pieces = 0;
  DELETE FROM revenue_cohort_monthly
   WHERE delta_twelfths = 0 AND flips = 0 AND new_customers = 0 AND new_twelfths = 0;
END $$;

-- Writes the movements of the customers whose spans satisfy `cond` (a condition on alias s) from
-- their spans. A change point is a span boundary of one subscription: b is its span ending there,
-- a its span starting there. Classified from the whole customer:
--   no b, a:  expansion if another subscription of the customer recurs just before, else
--             reactivation if the customer recurred before, else new;
--   b, no a:  contraction if another subscription still recurs, else churn;
--   b and a:  expansion when the value rises, contraction when it falls (same key: one piece);
--             a key change gives two pieces (see the table's comment).
CREATE FUNCTION revenue_movements_insert(cond TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO revenue_movements (subscription_id, customer_id, at, provider, plan, cadence, currency,
                                   kind_alone, kind_net, paired, other_plan, other_cadence,
                                   delta_twelfths, flip, cohort, cohort_provider)
    WITH sp AS (SELECT * FROM revenue_spans s WHERE %1$s),
    first AS (
      SELECT DISTINCT ON (customer_id) customer_id,
             date_trunc('month', valid_from AT TIME ZONE 'UTC')::date AS cohort, provider AS cohort_provider
        FROM sp ORDER BY customer_id, valid_from, subscription_id
    ),
    pts AS (
      SELECT subscription_id, customer_id, valid_from AS at FROM sp
      UNION
      SELECT subscription_id, customer_id, valid_to FROM sp WHERE valid_to IS NOT NULL
    ),
    -- The customer's other spans and the subscription's own are read through the indexes of
    -- revenue_spans (a condition on the customer keeps every span of it, so nothing is missed).
    ch AS (
      SELECT p.subscription_id, p.customer_id, p.at,
             b.provider AS b_provider, b.plan AS b_plan, b.cadence AS b_cadence, b.currency AS b_currency,
             b.mrr_twelfths AS bv,
             a.provider AS a_provider, a.plan AS a_plan, a.cadence AS a_cadence, a.currency AS a_currency,
             a.mrr_twelfths AS av,
             EXISTS (SELECT 1 FROM revenue_spans o WHERE o.customer_id = p.customer_id AND o.subscription_id <> p.subscription_id
                        AND o.valid_from < p.at AND (o.valid_to IS NULL OR o.valid_to >= p.at)) AS others_before,
             EXISTS (SELECT 1 FROM revenue_spans o WHERE o.customer_id = p.customer_id AND o.subscription_id <> p.subscription_id
                        AND o.valid_from <= p.at AND (o.valid_to IS NULL OR o.valid_to > p.at)) AS others_after,
             EXISTS (SELECT 1 FROM revenue_spans o WHERE o.customer_id = p.customer_id AND o.valid_from < p.at) AS ever_before
        FROM pts p
        LEFT JOIN revenue_spans b ON b.subscription_id = p.subscription_id AND b.customer_id = p.customer_id AND b.valid_to = p.at
        LEFT JOIN revenue_spans a ON a.subscription_id = p.subscription_id AND a.customer_id = p.customer_id AND a.valid_from = p.at
    ),
    k AS (
      SELECT ch.*,
             CASE WHEN bv IS NULL THEN
                    CASE WHEN others_before THEN 'expansion' WHEN ever_before THEN 'reactivation' ELSE 'new' END
                  WHEN av IS NULL THEN CASE WHEN others_after THEN 'contraction' ELSE 'churn' END
                  WHEN av >= bv THEN 'expansion' ELSE 'contraction' END AS kind,
             (bv IS NOT NULL AND av IS NOT NULL
              AND (b_provider, b_plan, b_cadence, b_currency) IS DISTINCT FROM (a_provider, a_plan, a_cadence, a_currency)) AS split,
             (b_provider IS NOT DISTINCT FROM a_provider AND b_currency IS NOT DISTINCT FROM a_currency) AS pairable
        FROM ch
       WHERE NOT (bv IS NOT NULL AND av IS NOT NULL AND bv = av
                  AND (b_provider, b_plan, b_cadence, b_currency) IS NOT DISTINCT FROM (a_provider, a_plan, a_cadence, a_currency))
    ),
    pieces AS (
      -- One piece: a start, an end, or a change of value under one key.
      SELECT subscription_id, customer_id, at,
             COALESCE(a_provider, b_provider) AS provider, COALESCE(a_plan, b_plan) AS plan,
             COALESCE(a_cadence, b_cadence) AS cadence, COALESCE(a_currency, b_currency) AS currency,
             kind AS kind_alone, kind AS kind_net, true AS paired,
             COALESCE(a_plan, b_plan) AS other_plan, COALESCE(a_cadence, b_cadence) AS other_cadence,
             COALESCE(av, 0) - COALESCE(bv, 0) AS delta_twelfths
        FROM k WHERE NOT split
      UNION ALL
      SELECT subscription_id, customer_id, at, b_provider, b_plan, b_cadence, b_currency,
             'contraction', CASE WHEN pairable THEN kind ELSE 'contraction' END, pairable, a_plan, a_cadence, -bv
        FROM k WHERE split
      UNION ALL
      SELECT subscription_id, customer_id, at, a_provider, a_plan, a_cadence, a_currency,
             'expansion', CASE WHEN pairable THEN kind ELSE 'expansion' END, pairable, b_plan, b_cadence, av
        FROM k WHERE split
    )
    SELECT p.subscription_id, p.customer_id, p.at, p.provider, p.plan, p.cadence, p.currency,
           p.kind_alone, p.kind_net, p.paired, p.other_plan, p.other_cadence, p.delta_twelfths,
           CASE WHEN p.kind_alone IN ('new', 'reactivation', 'churn')
                 AND row_number() OVER (PARTITION BY p.customer_id, p.at, p.kind_alone ORDER BY p.subscription_id) = 1
                THEN CASE WHEN p.kind_alone = 'churn' THEN -1 ELSE 1 END ELSE 0 END,
           f.cohort, f.cohort_provider
      FROM pieces p JOIN first f USING (customer_id)
  $q$, cond);
END $$;

-- Recomputes the movements (and their roll-ups) of one customer from its spans.
CREATE FUNCTION revenue_customer_refresh(p_customer BIGINT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cond TEXT := format('customer_id = %s', p_customer);
BEGIN
  PERFORM revenue_rollup_add(-1, 'm.' || cond);
  DELETE FROM revenue_movements WHERE customer_id = p_customer;
  PERFORM revenue_movements_insert('s.' || cond);
  PERFORM revenue_rollup_add(1, 'm.' || cond);
END $$;

-- Recomputes every movement and both roll-ups from the spans.
CREATE FUNCTION revenue_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM revenue_movements;
  DELETE FROM revenue_daily;
  DELETE FROM revenue_cohort_monthly;
  PERFORM revenue_movements_insert('true');
  PERFORM revenue_rollup_add(1, 'true');
END $$;

-- The monthly value of a subscription state in twelfths of a cent (0: it does not recur).
-- Recurring statuses: active, past_due, and cancelled until ends_at (the caller checks ends_at).
CREATE FUNCTION revenue_twelfths(p_status TEXT, p_cadence TEXT, p_amount INTEGER) RETURNS BIGINT
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_amount IS NULL OR p_amount <= 0 OR p_status NOT IN ('active', 'past_due', 'cancelled') THEN 0
              WHEN p_cadence = 'yearly' THEN p_amount::bigint
              ELSE 12 * p_amount::bigint END
$$;

-- Rewrites the history of subscription s from the instant p_at on to its present state: spans that
-- start at or after the cut go, a span across it ends there, and the present state recurs from
-- the cut (a cancelled one until its ends_at), continuing the span before when nothing changed.
-- The cut is p_at, or the subscription's ends_at when it is cancelled or expired and ended earlier.
-- On insert (p_insert) an expired row with an ends_at is taken to have recurred until then.
CREATE FUNCTION revenue_span_apply(s subscriptions, p_at TIMESTAMPTZ, p_insert BOOLEAN) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  v BIGINT;
  stop TIMESTAMPTZ := NULL;
  cut TIMESTAMPTZ := p_at;
  st TEXT := s.status;
BEGIN
  IF p_insert AND st = 'expired' AND s.ends_at IS NOT NULL THEN
    st := 'cancelled';
  END IF;
  v := revenue_twelfths(st, s.cadence, s.amount_cents);
  IF st = 'cancelled' THEN
    stop := s.ends_at;
    IF stop IS NULL THEN v := 0; END IF;
  END IF;
  IF s.status IN ('cancelled', 'expired') AND s.ends_at IS NOT NULL AND s.ends_at < cut THEN
    cut := GREATEST(s.ends_at, s.start_date);
  END IF;
  DELETE FROM revenue_spans WHERE subscription_id = s.id AND valid_from >= cut;
  UPDATE revenue_spans SET valid_to = cut
   WHERE subscription_id = s.id AND valid_from < cut AND (valid_to IS NULL OR valid_to > cut);
  IF v > 0 AND (stop IS NULL OR stop > cut) THEN
    UPDATE revenue_spans SET valid_to = stop
     WHERE subscription_id = s.id AND valid_to = cut AND customer_id = s.customer_id AND provider = s.provider
       AND plan = s.plan AND cadence = s.cadence AND currency = s.currency AND mrr_twelfths = v;
    IF NOT FOUND THEN
      INSERT INTO revenue_spans (subscription_id, customer_id, provider, plan, cadence, currency, mrr_twelfths,
                                 valid_from, valid_to)
        VALUES (s.id, s.customer_id, s.provider, s.plan, s.cadence, s.currency, v, cut, stop);
    END IF;
  END IF;
END $$;

CREATE FUNCTION revenue_subscription_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM revenue_span_apply(NEW, NEW.start_date, true);
  ELSE
    PERFORM revenue_span_apply(NEW, GREATEST(NEW.updated_at, NEW.start_date), false);
    IF OLD.customer_id <> NEW.customer_id THEN
      PERFORM revenue_customer_refresh(OLD.customer_id);
    END IF;
  END IF;
  PERFORM revenue_customer_refresh(NEW.customer_id);
  RETURN NULL;
END $$;

CREATE TRIGGER subscriptions_revenue_insert
  AFTER INSERT ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION revenue_subscription_trigger();

CREATE TRIGGER subscriptions_revenue_update
  AFTER UPDATE OF status, ends_at, amount_cents, cadence, plan, currency, provider, customer_id ON subscriptions
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.ends_at IS DISTINCT FROM NEW.ends_at
        OR OLD.amount_cents IS DISTINCT FROM NEW.amount_cents OR OLD.cadence IS DISTINCT FROM NEW.cadence
        OR OLD.plan IS DISTINCT FROM NEW.plan OR OLD.currency IS DISTINCT FROM NEW.currency
        OR OLD.provider IS DISTINCT FROM NEW.provider OR OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION revenue_subscription_trigger();

CREATE FUNCTION revenue_truncate_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE revenue_daily, revenue_cohort_monthly;
  RETURN NULL;
END $$;

-- A truncate of subscriptions cascades to the spans and the movements; the roll-ups follow.
CREATE TRIGGER revenue_movements_truncate
  AFTER TRUNCATE ON revenue_movements
  FOR EACH STATEMENT EXECUTE FUNCTION revenue_truncate_trigger();

-- The history of the subscriptions already stored: each has recurred in its present state since
-- its start (until its ends_at when it is cancelled or expired).
DO $$
DECLARE
  s subscriptions%ROWTYPE;
BEGIN
  FOR s IN SELECT * FROM subscriptions ORDER BY id LOOP
    PERFORM revenue_span_apply(s, s.start_date, true);
  END LOOP;
END $$;
SELECT revenue_rebuild();
ANALYZE revenue_spans;
ANALYZE revenue_movements;
ANALYZE revenue_daily;
ANALYZE revenue_cohort_monthly;
