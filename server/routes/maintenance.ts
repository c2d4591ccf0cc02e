/**
 * Maintenance (specification §2 Maintenance, §7 calls; CONTRACT.md candidate paths — answering at
 * the first candidate is enough, the console stops there). Paths relative to the API prefix:
 *
 * - GET /maintenance/run-expiration?dryRun=true previews and never writes; dryRun=false on a GET
 *   is refused (400) so a link can never apply changes.
 * - POST /maintenance/run-expiration applies ONLY with the explicit body `{"dryRun": false}`;
 *   `{"dryRun": true}` previews. A POST without a body, or without dryRun, applies nothing and
 *   answers 400 (CONTRACT.md). A real run while another runs → 409 (server/maintenance/expirationJob).
 * - POST /maintenance/enforce-now {email} → one user's due state now; 404 unknown email.
 * - GET /maintenance/diag → diagnostics (server/maintenance/diag.ts).
 * - GET /maintenance/ping-discourse, /maintenance/ping-lemonsqueezy, /maintenance/ping-clickbank
 *   [?which=secret|developer] → a ping summary, always 200 (the result is in the body;
 *   server/maintenance/pings.ts); an unknown `which` → 400.
 * - POST /maintenance/reconcile {provider, dryRun} (role admin) → a reconciliation with
 *   LemonSqueezy or ClickBank (server/reconcile/job.ts). Only `dryRun: false` applies; a body
 *   without it is a dry run.
 */
import { Hono } from 'hono';
import { requestActor } from '../audit/audit';
import { requireRole } from '../auth/roles';
import { runReconcile } from '../reconcile/job';
import { RECONCILE_PROVIDERS } from '../reconcile/types';
import type { AppDeps } from '../context';
import { z } from 'zod';
import { parseJsonBody, parseQuery } from '../http/body';
import { emailField } from '../http/fields';
import { diagnostics } from '../maintenance/diag';
import { enforceNow } from '../maintenance/enforce';
import { runExpirationJob } from '../maintenance/expirationJob';
import {
  pingClickbank,
  pingDiscourse,
  pingLemonSqueezy,
  type ClickbankWhich,
} from '../maintenance/pings';

/** GET /maintenance/run-expiration query: `dryRun` may only be true (or 1): a GET never applies. */
export const expirationPreviewQuery = z.object({
  dryRun: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .regex(/^(true|1)$/i, {
        error: (iss) =>
          `GET only previews (dryRun=true); POST {"dryRun": false} to apply (got dryRun=${String(iss.input)})`,
      })
      .optional(),
  ),
});

/** GET /maintenance/ping-clickbank query: the optional variant (§2: secret or developer). */
export const clickbankPingQuery = z.object({
  which: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .enum(['secret', 'developer'], {
        error: (iss) =>
          `which must be secret or developer (got '${String(iss.input).slice(0, 40)}')`,
      })
      .optional(),
  ),
});

/** POST /maintenance/enforce-now body: `{email}`. */
export const enforceNowBody = z.object({ email: emailField('email') });

/** The 400 message of a POST run-expiration without the explicit apply body. */
export const APPLY_BODY_REQUIRED =
  'Nothing was applied: send the body {"dryRun": false} to apply the expiration run, or GET ?dryRun=true to preview it';

/** POST /maintenance/run-expiration body: `{dryRun: boolean}`, required (no body or no dryRun applies nothing). */
export const expirationRunBody = z.object({
  dryRun: z.boolean({
    error: (iss) =>
      iss.input === undefined ? APPLY_BODY_REQUIRED : 'dryRun must be true or false',
  }),
});

/** POST /maintenance/reconcile body: the provider, and `dryRun` (only `false` applies; absent = a dry run). */
export const reconcileBody = z.object({
  provider: z.enum(RECONCILE_PROVIDERS, {
    error: (iss) =>
      iss.input === undefined
        ? 'provider is required: lemonsqueezy or clickbank'
        : `provider must be lemonsqueezy or clickbank (got '${String(iss.input).slice(0, 40)}')`,
  }),
  dryRun: z.boolean({ error: 'dryRun must be true or false' }).optional(),
});

/** Builds the Maintenance router (see the module doc for every path). */
export function maintenanceRoutes(deps: AppDeps): Hono {
  const startedAt = deps.now();
  const r = new Hono();
  r.get('/maintenance/run-expiration', async (c) => {
    parseQuery(c, expirationPreviewQuery);
    return c.json(await runExpirationJob(deps, { dryRun: true }));
  });
  r.post('/maintenance/run-expiration', async (c) => {
    // A body-less or dryRun-less POST applies nothing: the body must say {dryRun: false}.
    const body = await parseJsonBody(c, expirationRunBody);
    return c.json(await runExpirationJob(deps, { dryRun: body.dryRun, trigger: 'console' }));
  });
  r.post('/maintenance/enforce-now', async (c) => {
    const { email } = await parseJsonBody(c, enforceNowBody);
    return c.json(await enforceNow(deps, email));
  });
  r.post('/maintenance/reconcile', requireRole('admin'), async (c) => {
    const body = await parseJsonBody(c, reconcileBody);
    const result = await runReconcile(deps, {
      provider: body.provider,
      dryRun: body.dryRun !== false,
      trigger: 'console',
      actor: requestActor(c, deps),
    });
    return c.json(result);
  });
  r.get('/maintenance/diag', async (c) => c.json(await diagnostics(deps, startedAt)));
  r.get('/maintenance/ping-discourse', async (c) => c.json(await pingDiscourse(deps.config)));
  r.get('/maintenance/ping-lemonsqueezy', async (c) => c.json(await pingLemonSqueezy(deps.config)));
  r.get('/maintenance/ping-clickbank', async (c) => {
    const { which } = parseQuery(c, clickbankPingQuery);
    return c.json(
      await pingClickbank(deps.config, (which ?? null) as ClickbankWhich, { now: deps.now }),
    );
  });
  return r;
}
