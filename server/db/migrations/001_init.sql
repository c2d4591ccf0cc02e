-- Reference admin API schema (PostgreSQL dialect; runs on PGlite and on a production PostgreSQL).
-- Money is integer cents plus an ISO 4217 code. Instants are timestamptz (stored UTC).

CREATE TABLE customers (
  id          BIGSERIAL PRIMARY KEY,
  email       TEXT NOT NULL UNIQUE CHECK (email = lower(email)),
  name        TEXT,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per provider subscription: the Subscriptions screen (row_id = id).
-- provider_id: LemonSqueezy subscription id, or the ClickBank receipt of the initial order.
-- status: the provider's own status (LemonSqueezy: on_trial, active, paused, past_due, unpaid,
-- cancelled, expired; ClickBank mapped to active, cancelled, expired).
-- payload: LemonSqueezy = the full subscription object as the API returns it ({type, id,
-- attributes, relationships, links}); ClickBank = the latest order's summary.
CREATE TABLE subscriptions (
  id                  BIGSERIAL PRIMARY KEY,
  customer_id         BIGINT NOT NULL REFERENCES customers(id),
  provider            TEXT NOT NULL CHECK (provider IN ('lemonsqueezy', 'clickbank')),
  provider_id         TEXT NOT NULL,
  status              TEXT NOT NULL,
  cadence             TEXT NOT NULL CHECK (cadence IN ('monthly', 'yearly')),
  plan                TEXT NOT NULL,
  source              TEXT,
  amount_cents        INTEGER CHECK (amount_cents >= 0),
  currency            TEXT NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  start_date          TIMESTAMPTZ NOT NULL,
  current_period_end  TIMESTAMPTZ,
  ends_at             TIMESTAMPTZ,
  payload             JSONB NOT NULL DEFAULT '{}'::jsonb,
  created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_id)
);

-- Forum access, one row per customer: the Users screen (row_id = id).
-- mg_status active + expires_at in the future = a scheduled revocation ("scheduled").
CREATE TABLE members (
  id               BIGSERIAL PRIMARY KEY,
  customer_id      BIGINT NOT NULL UNIQUE REFERENCES customers(id),
  subscription_id  BIGINT REFERENCES subscriptions(id),
  mg_status        TEXT NOT NULL CHECK (mg_status IN ('active', 'cancelled')),
  expires_at       TIMESTAMPTZ,
  updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Lifecycle events of subscriptions: dashboard "today" counts, metrics, revenue.
CREATE TABLE subscription_events (
  id               BIGSERIAL PRIMARY KEY,
  subscription_id  BIGINT NOT NULL REFERENCES subscriptions(id),
  type             TEXT NOT NULL CHECK (type IN ('new', 'renewal', 'cancellation', 'expiration', 'refund')),
  occurred_at      TIMESTAMPTZ NOT NULL,
  amount_cents     INTEGER,
  currency         TEXT CHECK (currency IS NULL OR currency ~ '^[A-Z]{3}$')
);

-- ClickBank order records (specification §3 "Marketplace order record"); raw_json is the
-- Instant Notification / Orders API payload as the provider sent it.
CREATE TABLE clickbank_orders (
  id                         BIGSERIAL PRIMARY KEY,
  subscription_id            BIGINT REFERENCES subscriptions(id),
  email                      TEXT NOT NULL CHECK (email = lower(email)),
  receipt                    TEXT NOT NULL UNIQUE,
  sku                        TEXT,
  status                     TEXT,
  title                      TEXT,
  site                       TEXT,
  affiliate                  TEXT,
  country                    TEXT,
  state                      TEXT,
  postal_code                TEXT,
  first_name                 TEXT,
  last_name                  TEXT,
  customer_display_name      TEXT,
  customer_refundable_state  TEXT,
  currency                   TEXT,
  amount_cents               INTEGER,
  rebill_amount_cents        INTEGER,
  account_amount_cents       INTEGER,
  next_payment_at            TIMESTAMPTZ,
  created_at_provider        TIMESTAMPTZ NOT NULL,
  raw_json                   JSONB NOT NULL DEFAULT '{}'::jsonb
);

-- Server application logs (the Logs screen).
CREATE TABLE logs (
  id       BIGSERIAL PRIMARY KEY,
  ts       TIMESTAMPTZ NOT NULL DEFAULT now(),
  level    TEXT NOT NULL CHECK (level IN ('trace', 'debug', 'info', 'warn', 'error', 'fatal')),
  msg      TEXT NOT NULL,
  context  JSONB
);

-- Processed webhook ids (idempotency); counted in admin stats as webhook_dedup_rows.
CREATE TABLE webhook_dedup (
  id           TEXT PRIMARY KEY,
  provider     TEXT NOT NULL,
  received_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Key/value facts about this database (seed parameters, seeded_at).
CREATE TABLE meta (
  key    TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);

CREATE INDEX subscriptions_customer_idx ON subscriptions (customer_id);
CREATE INDEX members_subscription_idx ON members (subscription_id);
CREATE INDEX subscription_events_time_idx ON subscription_events (occurred_at, type);
CREATE INDEX subscription_events_sub_idx ON subscription_events (subscription_id);
CREATE INDEX clickbank_orders_email_idx ON clickbank_orders (email, created_at_provider DESC);
CREATE INDEX logs_ts_idx ON logs (ts DESC);
