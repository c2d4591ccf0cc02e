/**
 * The provider webhooks (CONTRACT.md "Provider webhooks"), mounted by server/app.ts at the
 * server root — outside the admin prefix, without a session: POST /webhooks/lemonsqueezy and
 * POST /webhooks/clickbank. Each proves its origin (signature / encryption) before anything else.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { clickbankWebhookRoutes } from './clickbank';
import { lemonSqueezyWebhookRoutes } from './lemonsqueezy';

/** Both webhook endpoints as one router; paths are absolute ('/webhooks/…'), mount it at '/'. */
export function webhookRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.route('/', lemonSqueezyWebhookRoutes(deps));
  app.route('/', clickbankWebhookRoutes(deps));
  return app;
}
