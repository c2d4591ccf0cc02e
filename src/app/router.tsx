/**
 * The console's route table (§2 Routing; CONTRACT.md: served under the /admin basename, the
 * dashboard at /admin/), for React Router's data router.
 *
 * Every screen loads lazily (route `lazy`), so the entry holds only the router and the API layer,
 * and the sign-in page loads neither the signed-in layout nor any other screen. A screen that
 * names its first query (`firstQuery`) has a loader that starts that query through TanStack Query
 * as the navigation begins, in parallel with the screen's code (render-as-you-fetch); the loader
 * never waits for the answer, so the screen shows its own loading and error states (§8).
 *
 * Adding a screen is one entry in {@link SCREENS}.
 */
import type { ComponentType } from 'react';
import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { Navigate, type createBrowserRouter, type RouteObject } from 'react-router-dom';
import { onUnauthorized } from '../api/client';
import { statsQueryOptions } from '../api/stats';
import { hasToken } from '../api/token';
import {
  listQueryFromSearch,
  type FilterValues,
  type ListQuery,
  type ListSpec,
} from '../domain/list';
import { LOGIN_PATH, loginRedirectState } from '../screens/useLoginRedirect';
import { AppRoot, type RouteHandle } from './AppRoot';
import { RequireAuth } from './RequireAuth';
import { RouteErrorPage, RouteFallback } from './RouteFallback';

/** The base path the console is served under, with its trailing slash (the dashboard is /admin/). */
export const APP_BASENAME = '/admin/';

/** One guarded screen of the console. */
interface ScreenRoute {
  /** Its path under the basename; '' is the index route (the dashboard). */
  path: string;
  /** Its screen title (§2), shown as '<title> · MG Admin Console' in the browser tab. */
  title: string;
  /** Loads the screen's component. */
  Component: () => Promise<ComponentType>;
  /**
   * Starts the screen's first query for the address `url` in `queryClient` (ensureQueryData), so
   * its request goes out with the screen's code rather than after it.
   */
  firstQuery?: (queryClient: QueryClient, url: URL) => Promise<unknown>;
}

/**
 * The first query of a list screen: the page its address asks for (the list's URL state, §5),
 * from the list's spec and query options, which `load` brings in with the screen.
 */
function listPage<F extends FilterValues<F>, K extends string, TPage, TKey extends QueryKey>(
  load: () => Promise<
    [ListSpec<F, K>, (query: ListQuery<F, K>) => EnsureQueryDataOptions<TPage, Error, TPage, TKey>]
  >,
): NonNullable<ScreenRoute['firstQuery']> {
  return async (queryClient, url) => {
    const [spec, options] = await load();
    return queryClient.ensureQueryData(options(listQueryFromSearch(spec, url.searchParams)));
  };
}

/** The guarded screens, in the sidebar's order (§2 Layout). */
const SCREENS: readonly ScreenRoute[] = [
  {
    path: '',
    title: 'Dashboard',
    Component: () => import('../screens/DashboardScreen').then((m) => m.DashboardScreen),
    // Imported statically: the dashboard is where an operator lands, and its stats then go out
    // as soon as the route matches instead of after one more chunk.
    firstQuery: (queryClient) => queryClient.ensureQueryData(statsQueryOptions()),
  },
  {
    path: 'metrics',
    title: 'Metrics',
    Component: () => import('../screens/MetricsScreen').then((m) => m.MetricsScreen),
  },
  {
    path: 'revenue',
    title: 'Revenue',
    Component: () => import('../screens/RevenueScreen').then((m) => m.RevenueScreen),
    firstQuery: async (queryClient, url) => {
      const [d, api] = await Promise.all([import('../domain/revenue'), import('../api/revenue')]);
      const filters = d.revenueFiltersFromSearch(url.searchParams);
      return queryClient.ensureQueryData(
        api.revenueQueryOptions(d.revenueQueryFromFilters(filters, new Date())),
      );
    },
  },
  {
    path: 'users',
    title: 'Users',
    Component: () => import('../screens/UsersScreen').then((m) => m.UsersScreen),
    firstQuery: listPage(() =>
      Promise.all([import('../domain/query'), import('../api/users')]).then(([d, api]) => [
        d.USERS_LIST,
        api.usersQueryOptions,
      ]),
    ),
  },
  {
    path: 'subscriptions',
    title: 'Subscriptions',
    Component: () => import('../screens/SubscriptionsScreen').then((m) => m.SubscriptionsScreen),
    firstQuery: listPage(() =>
      Promise.all([import('../domain/query'), import('../api/subscriptions')]).then(([d, api]) => [
        d.SUBSCRIPTIONS_LIST,
        api.subscriptionsQueryOptions,
      ]),
    ),
  },
  {
    path: 'isr',
    title: 'Integrated Tracking (First-Party)',
    Component: () => import('../screens/IsrScreen').then((m) => m.IsrScreen),
  },
  {
    path: 'webhooks',
    title: 'Webhooks',
    Component: () => import('../screens/WebhooksScreen').then((m) => m.WebhooksScreen),
    firstQuery: listPage(() =>
      Promise.all([import('../domain/webhooks'), import('../api/webhooks')]).then(([d, api]) => [
        d.WEBHOOKS_LIST,
        api.webhookDeliveriesQueryOptions,
      ]),
    ),
  },
  {
    path: 'logs',
    title: 'Logs',
    Component: () => import('../screens/LogsScreen').then((m) => m.LogsScreen),
    firstQuery: listPage(() =>
      Promise.all([import('../domain/logs'), import('../api/logs')]).then(([d, api]) => [
        d.LOGS_LIST,
        api.logsQueryOptions,
      ]),
    ),
  },
  {
    path: 'audit',
    title: 'Audit',
    Component: () => import('../screens/AuditScreen').then((m) => m.AuditScreen),
    firstQuery: listPage(() =>
      Promise.all([import('../domain/audit'), import('../api/audit')]).then(([d, api]) => [
        d.AUDIT_LIST,
        api.auditQueryOptions,
      ]),
    ),
  },
  {
    path: 'settings',
    title: 'Settings',
    Component: () => import('../screens/SettingsScreen').then((m) => m.SettingsScreen),
  },
  {
    path: 'maintenance',
    title: 'Maintenance',
    Component: () => import('../screens/MaintenanceScreen').then((m) => m.MaintenanceScreen),
  },
  {
    path: 'customers/:email',
    title: 'Customer',
    Component: () => import('../screens/CustomerScreen').then((m) => m.CustomerScreen),
    firstQuery: async (queryClient, url) => {
      const api = await import('../api/customers');
      const email = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
      return queryClient.ensureQueryData(api.customerQueryOptions(email));
    },
  },
];

/** The route object of one guarded screen; its loader starts the first query when signed in. */
function screenRoute(queryClient: QueryClient, screen: ScreenRoute): RouteObject {
  const { firstQuery } = screen;
  return {
    ...(screen.path === '' ? { index: true } : { path: screen.path }),
    handle: { title: screen.title } satisfies RouteHandle,
    lazy: async () => ({ Component: await screen.Component() }),
    loader: firstQuery
      ? ({ request }) => {
          // Without a token the guard sends the operator to /login; a request would only 401.
          if (hasToken()) firstQuery(queryClient, new URL(request.url)).catch(() => undefined);
          return null;
        }
      : undefined,
  };
}

/**
 * The console's route objects, relative to the basename, with loaders that fill `queryClient`.
 * The browser router (src/main.tsx) and the flow stories' memory routers both run this table.
 */
export function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      Component: AppRoot,
      ErrorBoundary: RouteErrorPage,
      HydrateFallback: RouteFallback,
      children: [
        {
          path: 'login',
          handle: { title: 'Admin Login' } satisfies RouteHandle,
          lazy: async () => ({
            Component: (await import('../screens/LoginScreen')).LoginScreen,
          }),
        },
        {
          path: 'invite/:token',
          handle: { title: 'Set up your account' } satisfies RouteHandle,
          lazy: async () => ({
            Component: (await import('../screens/InviteScreen')).InviteScreen,
          }),
        },
        {
          Component: RequireAuth,
          children: [
            {
              lazy: async () => ({ Component: (await import('./AppShell')).AppShell }),
              children: SCREENS.map((screen) => screenRoute(queryClient, screen)),
            },
          ],
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

/** A data router of the console (the browser's, or a story's memory router). */
type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, 'basename' | 'state' | 'navigate'>;

/**
 * Sends the operator to /login after any 401 (CONTRACT.md Authentication, §6; the API client has
 * already cleared the token), remembering where they were, so the login screen says the session
 * expired. Registered with the router as it is made, so a route loader's first query that answers
 * 401 is handled too. Returns the function that unregisters it.
 */
export function signOutOnUnauthorized(router: AppRouter): () => void {
  return onUnauthorized(() => {
    // The router's own state keeps the basename in the pathname; navigations are relative to it.
    const { location } = router.state;
    const base = (router.basename ?? '/').replace(/\/$/, '');
    const pathname =
      base && location.pathname.startsWith(base)
        ? location.pathname.slice(base.length) || '/'
        : location.pathname;
    if (pathname === LOGIN_PATH) return;
    void router.navigate(LOGIN_PATH, {
      replace: true,
      state: loginRedirectState({ ...location, pathname }, 'session_expired'),
    });
  });
}

/**
 * Rewrites an address of exactly /admin (no slash, which the basename would not match) in place
 * to /admin/, keeping its query and hash. Call once before the router is created.
 */
export function openAtBasename(): void {
  const { pathname, search, hash } = window.location;
  if (pathname === APP_BASENAME.slice(0, -1)) {
    window.history.replaceState(window.history.state, '', `${APP_BASENAME}${search}${hash}`);
  }
}
