-- One customer, whole (docs/api.md "Customers", "Search"): the indexes behind the customer
-- timeline and the find-anything search.
--
-- The timeline reads each of its sources newest first for one customer and stops after a page, so
-- each source has an index on (the customer's key, time DESC, id DESC): a page, the first or a
-- deep one behind a keyset cursor, is one short index range scan, whatever the customer's history.
-- (webhook_deliveries (email, received_at DESC, id DESC) exists since 016, audit_log
-- (lower(target), at DESC) since 014.)
-- Lifecycle rows are read per subscription and type (a renewal-heavy history never slows the
-- page of its rare cancellations).
CREATE INDEX subscription_events_sub_type_time_idx ON subscription_events
  (subscription_id, type, occurred_at DESC, id DESC);
CREATE INDEX isr_events_customer_time_idx ON isr_events (customer_email, created_at DESC, id DESC)
  WHERE customer_email IS NOT NULL;
CREATE INDEX forum_outbox_email_time_idx ON forum_outbox (email, created_at DESC, id DESC);
-- Log rows name a customer in their context's `email` (access actions, webhooks, forum errors,
-- expirations); most rows name none, and the partial index leaves them out.
CREATE INDEX logs_email_time_idx ON logs ((context ->> 'email'), ts DESC, id DESC)
  WHERE (context ->> 'email') IS NOT NULL;
-- Access changes among them: the expiration run's rows, and the deliveries that granted or
-- revoked access, are a few of many rows of their customer.
CREATE INDEX logs_expired_email_time_idx ON logs ((context ->> 'email'), ts DESC, id DESC)
  WHERE msg = 'access.expired';
CREATE INDEX webhook_deliveries_access_idx ON webhook_deliveries (email, received_at DESC, id DESC)
  WHERE effects ?| ARRAY['access.grant', 'access.revoke'];

-- The search matches by prefix (LIKE 'q%'). A plain btree serves a prefix LIKE only under the C
-- collation; text_pattern_ops compares bytes under any collation, so these serve it on PGlite and
-- on a PostgreSQL created with a locale alike. Each is read in its own order with a LIMIT, so an
-- exact value, the shortest string with its prefix, comes first.
CREATE INDEX customers_email_prefix_idx ON customers (email text_pattern_ops);
CREATE INDEX customers_name_prefix_idx ON customers (lower(name) text_pattern_ops)
  WHERE name IS NOT NULL;
CREATE INDEX subscriptions_ls_id_prefix_idx ON subscriptions (provider_id text_pattern_ops)
  WHERE provider = 'lemonsqueezy';
CREATE INDEX subscriptions_ls_order_prefix_idx ON subscriptions
  ((payload -> 'attributes' ->> 'order_id') text_pattern_ops)
  WHERE provider = 'lemonsqueezy';
CREATE INDEX subscriptions_ls_customer_prefix_idx ON subscriptions
  ((payload -> 'attributes' ->> 'customer_id') text_pattern_ops)
  WHERE provider = 'lemonsqueezy';
-- Receipts are upper-case letters and digits; an operator may type them in either case.
CREATE INDEX clickbank_orders_receipt_prefix_idx ON clickbank_orders (upper(receipt) text_pattern_ops);
-- Affiliate nicknames and TIDs live on the ISR events (many rows each): the search walks the
-- distinct values of a prefix with one index probe per value.
CREATE INDEX isr_events_affiliate_prefix_idx ON isr_events (lower(affiliate) text_pattern_ops)
  WHERE affiliate IS NOT NULL;
CREATE INDEX isr_events_subid_prefix_idx ON isr_events (lower(subid) text_pattern_ops)
  WHERE subid IS NOT NULL;
