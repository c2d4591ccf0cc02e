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
 * 'Loading…' status shows while the code loads.
 */
import { lazy, type ComponentType } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppRoot, type RouteHandle } from './AppRoot';
import { RequireAuth } from './RequireAuth';
import { RouteError } from './RouteFallback';

/**
 * The base path the console is served under (§1, §9; CONTRACT.md), with its trailing slash so the
 * dashboard's address is /admin/ (React Router joins '/' to the basename as the basename itself).
 */
export const APP_BASENAME = '/admin/';

/** A lazily loaded named export of a screen module. */
function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

/**
 * Loaders of the guarded screens by their first path segment under the basename ('' = the
 * dashboard). import() fetches a module once, so a loader may run early (see AppShell).
 */
const screenLoaders = {
  '': () => import('../screens/DashboardScreen').then((m) => m.DashboardScreen),
  metrics: () => import('../screens/MetricsScreen').then((m) => m.MetricsScreen),
  users: () => import('../screens/UsersScreen').then((m) => m.UsersScreen),
  subscriptions: () => import('../screens/SubscriptionsScreen').then((m) => m.SubscriptionsScreen),
  isr: () => import('../screens/IsrScreen').then((m) => m.IsrScreen),
  logs: () => import('../screens/LogsScreen').then((m) => m.LogsScreen),
  settings: () => import('../screens/SettingsScreen').then((m) => m.SettingsScreen),
  maintenance: () => import('../screens/MaintenanceScreen').then((m) => m.MaintenanceScreen),
};

/**
 * Starts loading the guarded screen of the address being opened (window.location under
 * APP_BASENAME), if any; load errors are left to the screen's own lazy load to report.
 */
function preloadScreenOfLocation(): void {
  const { pathname } = window.location;
  if (!pathname.startsWith(APP_BASENAME)) return;
  const segment = pathname.slice(APP_BASENAME.length).split('/')[0] ?? '';
  if (Object.hasOwn(screenLoaders, segment)) {
    screenLoaders[segment as keyof typeof screenLoaders]().catch(() => undefined);
  }
}

/**
 * The signed-in layout route. Loading it also starts loading the screen being opened, so the two
 * chunks arrive together instead of one after the other (the screen's lazy load would otherwise
 * start only once the shell has rendered its outlet): the dashboard's first paint waits for one
 * round of requests, not two (issue 10 "Delivery", dashboard LCP).
 */
const AppShell = lazyScreen(() => {
  preloadScreenOfLocation();
  return import('./AppShell').then((m) => m.AppShell);
});

const LoginScreen = lazyScreen(() => import('../screens/LoginScreen').then((m) => m.LoginScreen));
const DashboardScreen = lazyScreen(screenLoaders['']);
const SettingsScreen = lazyScreen(screenLoaders.settings);
const UsersScreen = lazyScreen(screenLoaders.users);
const SubscriptionsScreen = lazyScreen(screenLoaders.subscriptions);
const MetricsScreen = lazyScreen(screenLoaders.metrics);
const IsrScreen = lazyScreen(screenLoaders.isr);
const LogsScreen = lazyScreen(screenLoaders.logs);
const MaintenanceScreen = lazyScreen(screenLoaders.maintenance);

/** Titles of the guarded screens (§2), also used for the document title. */
const titles = {
  dashboard: 'Dashboard',
  metrics: 'Metrics',
  users: 'Users',
  subscriptions: 'Subscriptions',
  isr: 'Integrated Tracking (First-Party)',
  logs: 'Logs',
  settings: 'Settings',
  maintenance: 'Maintenance',
} as const;

/**
 * The route objects, relative to the basename. Exported so flows can run the real table in a
 * memory router (stories) exactly as the browser router runs it.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <AppRoot />,
    errorElement: <RouteError />,
    children: [
      {
        path: 'login',
        handle: { title: 'Admin Login' } satisfies RouteHandle,
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
                handle: { title: titles.dashboard } satisfies RouteHandle,
                element: <DashboardScreen />,
              },
              {
                path: 'metrics',
                handle: { title: titles.metrics } satisfies RouteHandle,
                element: <MetricsScreen />,
              },
              {
                path: 'users',
                handle: { title: titles.users } satisfies RouteHandle,
                element: <UsersScreen />,
              },
              {
                path: 'subscriptions',
                handle: { title: titles.subscriptions } satisfies RouteHandle,
                element: <SubscriptionsScreen />,
              },
              {
                path: 'isr',
                handle: { title: titles.isr } satisfies RouteHandle,
                element: <IsrScreen />,
              },
              {
                path: 'logs',
                handle: { title: titles.logs } satisfies RouteHandle,
                element: <LogsScreen />,
              },
              {
                path: 'settings',
                handle: { title: titles.settings } satisfies RouteHandle,
                element: <SettingsScreen />,
              },
              {
                path: 'maintenance',
                handle: { title: titles.maintenance } satisfies RouteHandle,
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
 * The browser router of the built console, under /admin/. An address of exactly /admin (no
 * slash, which the basename would not match) is first rewritten in place to /admin/.
 */
export function createAppRouter() {
  const { pathname, search, hash } = window.location;
  if (pathname === APP_BASENAME.slice(0, -1)) {
    window.history.replaceState(window.history.state, '', `${APP_BASENAME}${search}${hash}`);
  }
  return createBrowserRouter(appRoutes, { basename: APP_BASENAME });
}
