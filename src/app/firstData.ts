/**
 * The data each screen shows first, requested at the very start of the page (render-as-you-fetch;
 * issue 10 "Delivery", dashboard LCP). The GET starts before React DOM, the route table and the
 * screens' code have been evaluated (src/app/startFirstData.ts is the entry's first import; the
 * libraries the entry shares with the screens are evaluated just before it), and the
 * screen's query takes its answer (preloadGet in src/api/client.ts): on the dashboard, GET /stats
 * is answered while the code still starts up, so the first render already has the figures.
 */
import { preloadGet } from '../api/client';
import { hasToken } from '../api/token';
import { routeSegmentOf, type RouteSegment } from './routeModules';

/**
 * The API path (under the configured prefix) a guarded screen shows first, by route segment: the
 * dashboard's stats (§2 Dashboard, §3 Stats). Other screens fetch on mount.
 */
export const FIRST_DATA_PATHS: Partial<Record<RouteSegment, string>> = { '': '/stats' };

/**
 * Starts the GET of the first data of the screen at `pathname` (e.g. window.location.pathname)
 * when a token is stored; the API path it started, or null (no token, or a screen with no first
 * data). Never throws: a failure is the screen's query to report.
 */
export function startFirstData(pathname: string): string | null {
  const segment = routeSegmentOf(pathname);
  const apiPath = segment === null ? undefined : FIRST_DATA_PATHS[segment];
  if (!apiPath || !hasToken()) return null;
  preloadGet(apiPath);
  return apiPath;
}
