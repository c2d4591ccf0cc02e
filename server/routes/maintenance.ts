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
import { queryText } from '../access/params';
import { badRequest } from '../errors';

/** Builds the Maintenance router (paths relative to the API prefix): GET and POST /maintenance/run-expiration. */
export function maintenanceRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/maintenance/run-expiration', async (c) => {
    const raw = queryText(c.req.query(), 'dryRun');
    if (raw !== undefined && !/^(true|1)$/i.test(raw)) {
      throw badRequest(
        `GET only previews (dryRun=true); POST {"dryRun": false} to apply (got dryRun=${raw})`,
      );
    }
    return c.json(await runExpiration(deps, { dryRun: true }));
  });
  r.post('/maintenance/run-expiration', async (c) => {
    const text = await c.req.text();
    let dryRun = false;
    if (text.trim() !== '') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw badRequest('The body is not valid JSON');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw badRequest('The body must be a JSON object');
      const v = (body as { dryRun?: unknown }).dryRun;
      if (v !== undefined && typeof v !== 'boolean')
        throw badRequest('dryRun must be true or false');
      dryRun = v === true;
    }
    return c.json(await runExpiration(deps, { dryRun }));
  });
  return r;
}
