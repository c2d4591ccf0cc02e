/**
 * The console's route table (§2 Routing; CONTRACT.md: served under the /admin basename, kept as
 * '/admin/' so the dashboard lives at /admin/).
 *
 * | path            | screen                                   | guard |
 * |-----------------|------------------------------------------|-------|
 * | /login          | LoginScreen                              | no    |
 * | / (index)       | DashboardScreen                          | yes   |
 * | /metrics        | MetricsScreen                            | yes   |
 * | /users          | UsersScreen                              | yes   |
 * | /subscriptions  | SubscriptionsScreen                      | yes   |
 * | /isr            | IsrScreen                                | yes   |
 * | /logs           | LogsScreen                               | yes   |
 * | /settings       | SettingsScreen                           | yes   |
 * | /maintenance    | MaintenanceScreen                        | yes   |
 * | * (unknown)     | redirect to / (replace)                  | —     |
 *
 * Guarded routes share the layout (AppShell). The shell and every screen load lazily, so the
 * first bundle holds only the router and the API layer, and the sign-in page loads neither the
 * layout (its dialogs, menus, live alerts) nor any screen but its own (issue 10 "Delivery"); a
 * 'Loading…' status shows while a screen's code loads after a navigation. The address the page
 * opens at is loaded before the first render instead (loadInitialRoute, called by src/main.tsx),
 * and its chunks are already on their way: the server answers it with its route document, which
 * preloads them (src/app/routeModules.ts says which modules each route starts with).
 */
import { lazy, type ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { hasToken } from '../api/token';
import { AppRoot } from './AppRoot';
import { RequireAuth } from './RequireAuth';
import { APP_BASENAME, routeSegmentOf, type RouteSegment } from './routeModules';

/** A lazily loaded route component that can be loaded ahead of its first render. */
type PreloadableComponent = ComponentType & {
  /** Starts loading the module (once); resolves when the component can render without suspending. */
  preload: () => Promise<unknown>;
};

/**
 * A route component loaded on first render (React.lazy) or ahead of it by `preload()`. Once its
 * module has loaded it renders the component directly, so a screen preloaded before the first
 * render (see loadInitialRoute) paints in that render instead of suspending and showing
 * 'Loading…' for a frame. A failed load rejects the lazy load, which the route's error element
 * reports.
 */
function preloadable(load: () => Promise<ComponentType>): PreloadableComponent {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(async () => ({ default: await preload() }));
  const Route = () => {
    const Component = loaded ?? Lazy;
    return <Component />;
  };
  return Object.assign(Route, { preload });
}

/** The signed-in layout route (AppShell), loaded with the screen being opened (see below). */
const AppShell = preloadable(() => {
  preloadScreenOfLocation();
  return import('./AppShell').then((m) => m.AppShell);
});

const LoginScreen = preloadable(() => import('../screens/LoginScreen').then((m) => m.LoginScreen));

/**
 * The guarded screens by their first path segment under the basename ('' = the dashboard).
 * import() fetches a module once, so a screen may be preloaded early (see AppShell).
 */
const screens = {
  '': preloadable(() => import('../screens/DashboardScreen').then((m) => m.DashboardScreen)),
  metrics: preloadable(() => import('../screens/MetricsScreen').then((m) => m.MetricsScreen)),
  users: preloadable(() => import('../screens/UsersScreen').then((m) => m.UsersScreen)),
  subscriptions: preloadable(() =>
    import('../screens/SubscriptionsScreen').then((m) => m.SubscriptionsScreen),
  ),
  isr: preloadable(() => import('../screens/IsrScreen').then((m) => m.IsrScreen)),
  logs: preloadable(() => import('../screens/LogsScreen').then((m) => m.LogsScreen)),
  settings: preloadable(() => import('../screens/SettingsScreen').then((m) => m.SettingsScreen)),
  maintenance: preloadable(() =>
    import('../screens/MaintenanceScreen').then((m) => m.MaintenanceScreen),
  ),
};
type ScreenSegment = keyof typeof screens;
const DashboardScreen = screens[''];
const MetricsScreen = screens.metrics;
const UsersScreen = screens.users;
const SubscriptionsScreen = screens.subscriptions;
const IsrScreen = screens.isr;
const LogsScreen = screens.logs;
const SettingsScreen = screens.settings;
const MaintenanceScreen = screens.maintenance;

/**
 * The query each guarded screen shows first, filled ahead of its first render from the GET that
 * src/app/startFirstData.ts started when the page began (render-as-you-fetch; issue 10
 * "Delivery", dashboard LCP). The others fetch on mount.
 */
const screenData: Partial<Record<ScreenSegment, (queryClient: QueryClient) => Promise<unknown>>> = {
  '': (queryClient) =>
    import('../api/stats').then((m) => queryClient.prefetchQuery(m.statsQueryOptions())),
};

/**
 * How long the first render waits for the opened screen's first data once its code is ready
 * (ms). The dashboard's stats usually arrive while the code starts up, so the first paint shows
 * the figures; a slower answer lets the screen paint its loading state first.
 */
export const FIRST_DATA_WAIT_MS = 250;

/** The guarded screen segment of `segment` (a route segment), or null (/login, no route). */
function screenOf(segment: RouteSegment | null): ScreenSegment | null {
  return segment !== null && Object.hasOwn(screens, segment) ? (segment as ScreenSegment) : null;
}

/** The guarded screens' route segments (a unit test holds them to src/app/routeModules.ts). */
export const SCREEN_SEGMENTS = Object.keys(screens) as readonly ScreenSegment[];

/**
 * Starts loading the guarded screen of the address being opened, if any, so the shell's and the
 * screen's chunks arrive together instead of one after the other; load errors are left to the
 * screen's own lazy load to report.
 */
function preloadScreenOfLocation(): void {
  const segment = screenOf(routeSegmentOf(window.location.pathname));
  if (segment !== null) screens[segment].preload().catch(() => undefined);
}

/**
 * Loads what the first render of the address being opened needs, before that render (issue 10
 * "Delivery", dashboard LCP): for a guarded screen with a stored token, the shell's and the
 * screen's code (their chunks are already on their way: the route document preloads them), then
 * the screen's first data for up to {@link FIRST_DATA_WAIT_MS} more; for /login, its code.
 * Resolves when that is done, or failed (the lazy load or the query then reports it); never
 * rejects. Without a token, or for an unknown address, there is nothing to wait for: the guard or
 * the redirect renders at once.
 */
export async function loadInitialRoute(queryClient: QueryClient): Promise<void> {
  const route = routeSegmentOf(window.location.pathname);
  const screen = screenOf(route);
  if (screen !== null && hasToken()) {
    const data = screenData[screen]?.(queryClient).catch(() => undefined);
    await Promise.all([AppShell.preload(), screens[screen].preload()]).catch(() => undefined);
    if (data) await Promise.race([data, delay(FIRST_DATA_WAIT_MS)]);
  } else if (route === 'login') {
    await LoginScreen.preload().catch(() => undefined);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The route objects, relative to the basename. Exported so flows can run the real table in a
 * memory router (stories) exactly as the browser router runs it.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <AppRoot />,
    children: [
      {
        path: 'login',
        element: <LoginScreen />,
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppShell />,
            children: [
              {
                index: true,
                element: <DashboardScreen />,
              },
              {
                path: 'metrics',
                element: <MetricsScreen />,
              },
              {
                path: 'users',
                element: <UsersScreen />,
              },
              {
                path: 'subscriptions',
                element: <SubscriptionsScreen />,
              },
              {
                path: 'isr',
                element: <IsrScreen />,
              },
              {
                path: 'logs',
                element: <LogsScreen />,
              },
              {
                path: 'settings',
                element: <SettingsScreen />,
              },
              {
                path: 'maintenance',
                element: <MaintenanceScreen />,
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The console's routes (declarative routing: `<BrowserRouter basename={APP_BASENAME}>` in
 * src/main.tsx renders this). React Router's data router would add about 56 KB of minified
 * code to the entry every page loads, for features the console does not use (loaders, actions,
 * fetchers); the stories still run the same table in data memory routers.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}

/**
 * Rewrites an address of exactly /admin (no slash, which the basename would not match) in place
 * to /admin/, keeping its query and hash. Call once before the router renders.
 */
export function openAtBasename(): void {
  const { pathname, search, hash } = window.location;
  if (pathname === APP_BASENAME.slice(0, -1)) {
    window.history.replaceState(window.history.state, '', `${APP_BASENAME}${search}${hash}`);
  }
}
