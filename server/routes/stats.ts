/**
 * GET /stats (dashboard, specification §2/§3 Stats) and GET /status (maintenance admin stats,
 * §3; CONTRACT.md), behind authentication. Figures are computed in server/stats.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { computeAdminStatus, computeDashboardStats } from '../stats';

/** Stats router: GET /stats → DashboardStatsBody; GET /status → AdminStatusBody (docs/api.md). */
export function createStatsRouter(deps: AppDeps): Hono {
  const router = new Hono();
  router.get('/stats', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await computeDashboardStats(deps.db, deps.config, deps.now(), deps.log));
  });
  router.get('/status', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await computeAdminStatus(deps.db, deps.config, deps.now(), deps.log));
  });
  return router;
}
