/**
 * GET /stats (dashboard, specification §2/§3 Stats) and GET /status (maintenance admin stats,
 * §3; CONTRACT.md), behind authentication. Figures are computed in server/stats and reused for
 * up to STATS_CACHE_S seconds until a change commits (server/stats/cache.ts).
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { cachedAdminStatus, cachedDashboardStats } from '../stats/cache';

/** Stats router: GET /stats → DashboardStatsBody; GET /status → AdminStatusBody (docs/api.md). */
export function createStatsRouter(deps: AppDeps): Hono {
  const router = new Hono();
  router.get('/stats', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await cachedDashboardStats(deps));
  });
  router.get('/status', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await cachedAdminStatus(deps));
  });
  return router;
}
