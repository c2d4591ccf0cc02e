/**
 * The signed-in shell route (§2 Layout): the layout container around the routed screen, with the
 * page's one live event stream open while it is mounted (sounds §4, refreshed figures,
 * the header's stream indicator and activity feed; src/app/useLiveEvents.ts) and a 'Loading…' status
 * inside the main region while a screen's code loads, so header and sidebar stay in place.
 */
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AppLayoutScreen } from '../screens/AppLayoutScreen';
import { RouteFallback } from './RouteFallback';
import { useLiveEvents, type UseLiveEventsOptions } from './useLiveEvents';

/** Props of {@link AppShell}. */
export interface AppShellProps {
  /** Overrides for the live stream (stories and tests inject a fake stream, network or player). */
  liveEvents?: UseLiveEventsOptions;
}

/** Layout route of every guarded screen. Rendered only behind RequireAuth, so a token exists. */
export function AppShell({ liveEvents }: AppShellProps) {
  const live = useLiveEvents(liveEvents);
  return (
    <AppLayoutScreen live={live}>
      <Suspense fallback={<RouteFallback />}>
        <Outlet />
      </Suspense>
    </AppLayoutScreen>
  );
}
