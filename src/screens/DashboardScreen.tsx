/**
 * The Dashboard's container (§2 Dashboard, §3 Stats, §8): loads GET /stats through the API layer
 * (normalised there: alias spellings, the §5 cents rule, ARR and total fallbacks) and hands the
 * load's state to DashboardView — loading, 'Error: ' + message (default 'Failed to load stats',
 * which a malformed answer gets since its message is empty), or the cards.
 */
import { useQuery } from '@tanstack/react-query';
import { statsQueryOptions } from '../api/stats';
import { MESSAGES, errorMessageOr } from '../domain/messages';
import type { AsyncState, DashboardStats } from '../domain/types';
import { DashboardView } from '../components/DashboardView';

/** The index route's screen (§2 Routing: / is the dashboard). */
export function DashboardScreen() {
  const stats = useQuery(statsQueryOptions());

  let state: AsyncState<DashboardStats>;
  switch (stats.status) {
    case 'pending':
      state = { status: 'loading' };
      break;
    case 'error':
      state = { status: 'error', message: errorMessageOr(stats.error, MESSAGES.stats) };
      break;
    case 'success':
      state = { status: 'ready', data: stats.data };
      break;
  }

  return <DashboardView state={state} />;
}
