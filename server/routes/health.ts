/**
 * Reachability checks the Login screen pings before sign-in (specification §2 Login, §7):
 * GET /health and GET /health/db, public (docs/api.md "Auth (no token needed)").
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { AUTH_MESSAGES } from '../auth/routes';

/** The app version of §9, reported by /health. */
export const APP_VERSION = '0.0.1';

/** True when the database answers `SELECT 1`; never throws. */
export async function isDatabaseUp(deps: Pick<AppDeps, 'db'>): Promise<boolean> {
  try {
    await deps.db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Health router: GET /health → `{ok:true, version:'0.0.1', uptime_s}` (whole seconds since the
 * router was built); GET /health/db → `{ok:true}` or 503 `{ok:false, error:'db_unavailable', message}`.
 */
export function createHealthRouter(deps: AppDeps): Hono {
  const startedMs = deps.now().getTime();
  const router = new Hono();
  router.get('/health', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({
      ok: true,
      version: APP_VERSION,
      uptime_s: Math.max(0, Math.floor((deps.now().getTime() - startedMs) / 1000)),
    });
  });
  router.get('/health/db', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (await isDatabaseUp(deps)) return c.json({ ok: true });
    return c.json(
      { ok: false, error: 'db_unavailable', message: AUTH_MESSAGES.DB_UNAVAILABLE },
      503,
    );
  });
  return router;
}
