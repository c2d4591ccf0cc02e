/**
 * The signed-in shell route (§2 Layout): the layout container around the routed screen, with the
 * live-event sound alerts listening while it is mounted (§4 Sound alerts) and a 'Loading…' status
 * inside the main region while a screen's code loads, so header and sidebar stay in place.
 */
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { AppLayoutScreen } from '../screens/AppLayoutScreen';
import { RouteFallback } from './RouteFallback';
import { useLiveAlerts, type UseLiveAlertsOptions } from './useLiveAlerts';

/** Props of {@link AppShell}. */
export interface AppShellProps {
  /** Overrides for the live alerts (stories and tests inject a fake stream or player). */
  liveAlerts?: UseLiveAlertsOptions;
}

/** Layout route of every guarded screen. Rendered only behind RequireAuth, so a token exists. */
export function AppShell({ liveAlerts }: AppShellProps) {
  useLiveAlerts(liveAlerts);
  return (
    <AppLayoutScreen>
      <Suspense fallback={<RouteFallback />}>
        <Outlet />
      </Suspense>
    </AppLayoutScreen>
  );
}
