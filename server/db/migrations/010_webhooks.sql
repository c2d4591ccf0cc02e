-- Provider webhooks (server/webhooks).
-- Dedup rows older than the retention are pruned by received_at on every delivery (a few rows at a time).
CREATE INDEX webhook_dedup_received_idx ON webhook_dedup (received_at);
-- order_refunded finds the LemonSqueezy subscription of an order through its stored object.
CREATE INDEX subscriptions_ls_order_idx ON subscriptions ((payload -> 'attributes' ->> 'order_id'))
  WHERE provider = 'lemonsqueezy';
