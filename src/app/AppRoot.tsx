/**
 * The root route's element: everything every route shares.
 * - Registers the app-wide 401 handling once (CONTRACT.md Authentication, §6): the API client has
 *   already cleared the token; the operator is sent to /login (replace), remembering where they
 *   were, and the login screen says the session expired.
 * - Keeps the document title in step with the screen (ROUTE_TITLES in src/app/routeModules.ts),
 *   which screen readers announce after a navigation.
 * - Shows an accessible 'Loading…' while a lazily loaded route outside the shell (/login) loads,
 *   and the error page when a route fails to render (RouteErrorBoundary), until the next
 *   navigation.
 */
import { Suspense, useEffect, useEffectEvent } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { onUnauthorized } from '../api/client';
import { PRODUCT_TITLE } from '../components/AppLayout/brand';
import { LOGIN_PATH, loginRedirectState } from '../screens/useLoginRedirect';
import { RouteErrorBoundary, RouteFallback } from './RouteFallback';
import { routeTitleOf } from './routeModules';

/** The document title for a screen title: '<title> · MG Admin Console', or the product alone. */
export function documentTitle(title: string | undefined): string {
  return title ? `${title} · ${PRODUCT_TITLE}` : PRODUCT_TITLE;
}

/** Sends the operator to /login after any 401, remembering the current location. */
function useUnauthorizedRedirect() {
  const navigate = useNavigate();
  const location = useLocation();
  const handleUnauthorized = useEffectEvent(() => {
    if (location.pathname === LOGIN_PATH) return;
    void navigate(LOGIN_PATH, {
      replace: true,
      state: loginRedirectState(location, 'session_expired'),
    });
  });
  useEffect(() => onUnauthorized(() => handleUnauthorized()), []);
}

/** Sets document.title from the screen at the router's location. */
function useDocumentTitle(pathname: string) {
  const title = routeTitleOf(pathname);
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/** The root layout route: 401 handling, document title, the error boundary and the top-level Suspense boundary. */
export function AppRoot() {
  const { pathname } = useLocation();
  useUnauthorizedRedirect();
  useDocumentTitle(pathname);
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<RouteFallback />}>
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );
}
