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
import { Hono, type Context } from 'hono';
import { recordAudit, requestActor, type AuditOutcome } from '../audit/audit';
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
  /** Audits a maintenance call that changes or contacts something, after it answered. */
  const audit = (
    c: Context,
    action: string,
    outcome: AuditOutcome,
    detail: Record<string, unknown>,
  ) => recordAudit(deps.db, requestActor(c, deps), { action, outcome, detail }, deps.now());

  r.get('/maintenance/run-expiration', requireRole('admin'), async (c) => {
    parseQuery(c, expirationPreviewQuery);
    return c.json(await runExpirationJob(deps, { dryRun: true }));
  });
  r.post('/maintenance/run-expiration', requireRole('admin'), async (c) => {
    // A body-less or dryRun-less POST applies nothing: the body must say {dryRun: false}.
    const body = await parseJsonBody(c, expirationRunBody);
    // A run changes each member in its own transaction, so the run is audited once, as a whole,
    // when it has finished (or failed).
    try {
      const result = await runExpirationJob(deps, { dryRun: body.dryRun, trigger: 'console' });
      await audit(c, 'maintenance.run_expiration', 'ok', {
        dry_run: body.dryRun,
        processed: result.processed,
        affected_count: result.affected_count,
        sample_emails: result.sample_emails.slice(0, 10),
      });
      return c.json(result);
    } catch (err) {
      await audit(c, 'maintenance.run_expiration', 'failed', {
        dry_run: body.dryRun,
        error: err instanceof Error ? err.message.slice(0, 200) : 'failed',
      });
      throw err;
    }
  });
  r.post('/maintenance/enforce-now', requireRole('support'), async (c) => {
    const { email } = await parseJsonBody(c, enforceNowBody);
    return c.json(await enforceNow(deps, email, requestActor(c, deps)));
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
  r.get('/maintenance/diag', requireRole('admin'), async (c) =>
    c.json(await diagnostics(deps, startedAt)),
  );
  /** A ping answers `{ok, …}`; each is audited with its outcome. */
  const pinged = async (c: Context, which: string, result: { ok: boolean }) => {
    await audit(c, `maintenance.ping_${which}`, result.ok ? 'ok' : 'failed', {});
    return c.json(result);
  };
  r.get('/maintenance/ping-discourse', requireRole('admin'), async (c) =>
    pinged(c, 'discourse', await pingDiscourse(deps.config)),
  );
  r.get('/maintenance/ping-lemonsqueezy', requireRole('admin'), async (c) =>
    pinged(c, 'lemonsqueezy', await pingLemonSqueezy(deps.config)),
  );
  r.get('/maintenance/ping-clickbank', requireRole('admin'), async (c) => {
    const { which } = parseQuery(c, clickbankPingQuery);
    return pinged(
      c,
      'clickbank',
      await pingClickbank(deps.config, (which ?? null) as ClickbankWhich, { now: deps.now }),
    );
  });
  return r;
}
