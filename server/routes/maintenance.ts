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
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { queryText, readJsonObject } from '../access/params';
import { badRequest } from '../errors';
import { diagnostics } from '../maintenance/diag';
import { enforceNow, parseEnforceBody } from '../maintenance/enforce';
import { runExpirationJob } from '../maintenance/expirationJob';
import {
  pingClickbank,
  pingDiscourse,
  pingLemonSqueezy,
  type ClickbankWhich,
} from '../maintenance/pings';

/** The 400 message of a POST run-expiration without the explicit apply body. */
export const APPLY_BODY_REQUIRED =
  'Nothing was applied: send the body {"dryRun": false} to apply the expiration run, or GET ?dryRun=true to preview it';

/** Builds the Maintenance router (see the module doc for every path). */
export function maintenanceRoutes(deps: AppDeps): Hono {
  const startedAt = deps.now();
  const r = new Hono();
  r.get('/maintenance/run-expiration', async (c) => {
    const raw = queryText(c.req.query(), 'dryRun');
    if (raw !== undefined && !/^(true|1)$/i.test(raw)) {
      throw badRequest(
        `GET only previews (dryRun=true); POST {"dryRun": false} to apply (got dryRun=${raw})`,
      );
    }
    return c.json(await runExpirationJob(deps, { dryRun: true }));
  });
  r.post('/maintenance/run-expiration', async (c) => {
    const text = await c.req.text();
    if (text.trim() === '') throw badRequest(APPLY_BODY_REQUIRED);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw badRequest('The body is not valid JSON');
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('The body must be a JSON object');
    const v = (body as { dryRun?: unknown }).dryRun;
    if (v === undefined) throw badRequest(APPLY_BODY_REQUIRED);
    if (typeof v !== 'boolean') throw badRequest('dryRun must be true or false');
    return c.json(await runExpirationJob(deps, { dryRun: v, trigger: 'console' }));
  });
  r.post('/maintenance/enforce-now', async (c) => {
    const body = await readJsonObject(() => c.req.text());
    return c.json(await enforceNow(deps, parseEnforceBody(body)));
  });
  r.get('/maintenance/diag', async (c) => c.json(await diagnostics(deps, startedAt)));
  r.get('/maintenance/ping-discourse', async (c) => c.json(await pingDiscourse(deps.config)));
  r.get('/maintenance/ping-lemonsqueezy', async (c) => c.json(await pingLemonSqueezy(deps.config)));
  r.get('/maintenance/ping-clickbank', async (c) => {
    const which = queryText(c.req.query(), 'which');
    if (which !== undefined && which !== 'secret' && which !== 'developer') {
      throw badRequest(`which must be secret or developer (got '${which.slice(0, 40)}')`);
    }
    return c.json(
      await pingClickbank(deps.config, (which ?? null) as ClickbankWhich, { now: deps.now }),
    );
  });
  return r;
}
