/**
 * The root route's element: everything every route shares.
 * - Registers the app-wide 401 handling once (CONTRACT.md Authentication, §6): the API client has
 *   already cleared the token; the operator is sent to /login (replace), remembering where they
 *   were, and the login screen says the session expired.
 * - Keeps the document title in step with the screen (each route's `handle.title`, §2), which
 *   screen readers announce after a navigation.
 */
import { useEffect, useEffectEvent } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router-dom';
import { onUnauthorized } from '../api/client';
import { PRODUCT_TITLE } from '../components/AppLayout/brand';
import { LOGIN_PATH, loginRedirectState } from '../screens/useLoginRedirect';

/** What a route carries for the layout: its screen title (§2), for the document title. */
export interface RouteHandle {
  title: string;
}

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

/** The title of the deepest matched route that names one (undefined on none). */
function useRouteTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const title = (matches[i]?.handle as Partial<RouteHandle> | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

/** The root layout route: 401 handling and the document title. */
export function AppRoot() {
  useUnauthorizedRedirect();
  const title = useRouteTitle();
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  return <Outlet />;
}
