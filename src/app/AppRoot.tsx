/**
 * The root route's element: keeps the document title in step with the screen (each route's
 * `handle.title`, §2), which screen readers announce after a navigation.
 */
import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router-dom';
import { PRODUCT_TITLE } from '../components/AppLayout/brand';

/** What a route carries for the layout: its screen title (§2), for the document title. */
export interface RouteHandle {
  title: string;
}

/** The document title for a screen title: '<title> · MG Admin Console', or the product alone. */
export function documentTitle(title: string | undefined): string {
  return title ? `${title} · ${PRODUCT_TITLE}` : PRODUCT_TITLE;
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

/** The root layout route: the document title around the routed screen. */
export function AppRoot() {
  const title = useRouteTitle();
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  return <Outlet />;
}
