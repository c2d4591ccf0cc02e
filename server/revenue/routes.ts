/**
 * Revenue analytics routes (docs/api.md "Revenue"), readable by every signed-in operator:
 * GET /metrics/revenue, GET /metrics/revenue/movements/:date and GET /metrics/cohorts.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { cohorts } from './cohorts';
import { movementList, revenueOverview } from './revenue';

/** The revenue router (paths relative to the API prefix). */
export function revenueRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/metrics/revenue', async (c) => c.json(await revenueOverview(deps, c.req.query())));
  r.get('/metrics/revenue/movements/:date', async (c) =>
    c.json(await movementList(deps, c.req.param('date'), c.req.query())),
  );
  r.get('/metrics/cohorts', async (c) => c.json(await cohorts(deps, c.req.query())));
  return r;
}
