/**
 * Maintenance: the expiration run (specification §2 Maintenance "Expire cancelled access", §7
 * `maintenance/run-expiration`; CONTRACT.md candidate paths — answering at the first candidate
 * is enough, the console stops there).
 * - GET /maintenance/run-expiration?dryRun=true previews and never writes; dryRun=false on a GET
 *   is refused (400) so a link can never apply changes.
 * - POST /maintenance/run-expiration {dryRun:false} applies; {dryRun:true} previews. A POST
 *   without a body, or without dryRun, applies (POST is the apply verb of CONTRACT.md).
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { runExpiration } from '../access/expiration';
import { z } from 'zod';
import { parseJsonBody, parseQuery } from '../http/body';

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

/** POST /maintenance/run-expiration body: `{dryRun?: boolean}`; empty or without dryRun = apply. */
export const expirationRunBody = z.object({
  dryRun: z.boolean({ error: 'dryRun must be true or false' }).optional(),
});

/** Builds the Maintenance router (paths relative to the API prefix): GET and POST /maintenance/run-expiration. */
export function maintenanceRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/maintenance/run-expiration', async (c) => {
    parseQuery(c, expirationPreviewQuery);
    return c.json(await runExpiration(deps, { dryRun: true }));
  });
  r.post('/maintenance/run-expiration', async (c) => {
    const body = await parseJsonBody(c, expirationRunBody);
    return c.json(await runExpiration(deps, { dryRun: body.dryRun === true }));
  });
  return r;
}
