/**
 * Which lazily loaded modules each address of the console runs at start-up, by the first path
 * segment under the basename (§2 Routing; CONTRACT.md: the console lives under /admin/). Plain
 * data and one pure function, shared by the app's start-up (src/app/router.tsx,
 * src/app/firstData.ts) and the build (scripts/route-documents.ts), which turns each entry into a
 * route document: index.html with the route's chunks as `<link rel="modulepreload">`, so the
 * browser fetches them alongside the entry instead of after running it (issue 10 "Delivery",
 * dashboard LCP).
 *
 * The build also plans the start-up chunks from it: the sign-in route's code shared with the
 * console in one chunk, the landing route's (the shell and the dashboard) in another.
 *
 * Keep it in step with the lazy imports of src/app/router.tsx: the build fails when a module
 * named here is not loaded lazily (by import()), and a unit test checks that every guarded screen
 * of the router has its entry.
 */

/** The base path the console is served under, with its trailing slash (the dashboard is /admin/). */
export const APP_BASENAME = '/admin/';

/**
 * Source modules (paths from the project root) that the route at each first path segment loads
 * lazily at start-up: the signed-in shell and the screen, or the sign-in screen. '' = the
 * dashboard (/admin/).
 */
export const ROUTE_MODULES = {
  login: ['src/screens/LoginScreen.tsx'],
  '': ['src/app/AppShell.tsx', 'src/screens/DashboardScreen.tsx'],
  metrics: ['src/app/AppShell.tsx', 'src/screens/MetricsScreen.tsx'],
  users: ['src/app/AppShell.tsx', 'src/screens/UsersScreen.tsx'],
  subscriptions: ['src/app/AppShell.tsx', 'src/screens/SubscriptionsScreen.tsx'],
  isr: ['src/app/AppShell.tsx', 'src/screens/IsrScreen.tsx'],
  logs: ['src/app/AppShell.tsx', 'src/screens/LogsScreen.tsx'],
  settings: ['src/app/AppShell.tsx', 'src/screens/SettingsScreen.tsx'],
  maintenance: ['src/app/AppShell.tsx', 'src/screens/MaintenanceScreen.tsx'],
} as const satisfies Record<string, readonly string[]>;

/** A first path segment with a route of its own ('' = the dashboard). */
export type RouteSegment = keyof typeof ROUTE_MODULES;

/** Each route's screen title (§2), shown as '<title> · MG Admin Console' in the browser tab. */
export const ROUTE_TITLES: Readonly<Record<RouteSegment, string>> = {
  login: 'Admin Login',
  '': 'Dashboard',
  metrics: 'Metrics',
  users: 'Users',
  subscriptions: 'Subscriptions',
  isr: 'Integrated Tracking (First-Party)',
  logs: 'Logs',
  settings: 'Settings',
  maintenance: 'Maintenance',
};

/**
 * The routes whose start-up chunks carry V8's explicit compile hint (`//# allFunctionsCalledOnLoad`,
 * see scripts/route-documents.ts): the two addresses an operator opens first, whose chunks' code
 * runs almost entirely on load. Other screens' chunks hold much code that runs only on use
 * (dialogs, actions) and are compiled lazily as usual.
 */
export const COMPILE_HINT_ROUTES: readonly RouteSegment[] = ['login', ''];

/**
 * The route segment of `pathname` (a URL path, e.g. window.location.pathname): the first segment
 * under {@link APP_BASENAME} when it names a route, '' for the basename itself, with or without
 * its trailing slash (/admin and /admin/ are the dashboard); null for any other path.
 */
export function routeSegmentOf(pathname: string): RouteSegment | null {
  if (pathname === APP_BASENAME.slice(0, -1)) return '';
  if (!pathname.startsWith(APP_BASENAME)) return null;
  const segment = pathname.slice(APP_BASENAME.length).split('/')[0] ?? '';
  return Object.hasOwn(ROUTE_MODULES, segment) ? (segment as RouteSegment) : null;
}

/**
 * The screen title of a router location's pathname (relative to the basename, as React Router's
 * useLocation gives it: '/', '/users/42'); undefined for a path that names no route.
 */
export function routeTitleOf(routerPathname: string): string | undefined {
  const segment = routeSegmentOf(`${APP_BASENAME}${routerPathname.replace(/^\//, '')}`);
  return segment === null ? undefined : ROUTE_TITLES[segment];
}
