/**
 * The whole mocked admin API in one set: every resource's handlers (./handlers and the
 * handlers-* modules) in their default state. It sits above the per-resource modules, which
 * import the shared helpers of ./handlers and never this set.
 */
import type { HttpHandler } from 'msw';
import {
  actionHandlers,
  clickbankOrdersHandlers,
  detailHandlers,
  healthDbHandlers,
  healthHandlers,
  loginHandlers,
  logoutHandlers,
  statsHandlers,
  statusHandlers,
  subscriptionsHandlers,
  usersHandlers,
  whoamiHandlers,
} from './handlers';
import { auditHandlers } from './handlers-audit';
import { customerDefaultHandlers } from './handlers-customers';
import { liveStreamHandlers } from './handlers-live';
import { logsHandlers } from './handlers-logs';
import { maintenanceHandlers } from './handlers-maintenance';
import { metricsDefaultHandlers } from './handlers-metrics';
import { revenueDefaultHandlers } from './handlers-revenue';

/**
 * A signed-in console where every call answers from the fixtures: for dev and as a story base
 * (put a story's own handlers first; MSW uses the first match).
 */
export function defaultHandlers(): HttpHandler[] {
  return [
    whoamiHandlers.signedIn(),
    healthHandlers.ok(),
    healthDbHandlers.ok(),
    loginHandlers.ok(),
    logoutHandlers.ok(),
    statsHandlers.ok(),
    statusHandlers.ok(),
    usersHandlers.list(),
    actionHandlers.updated(),
    subscriptionsHandlers.list(),
    subscriptionsHandlers.refresh(),
    detailHandlers.byKey(),
    clickbankOrdersHandlers.list(),
    logsHandlers.list(),
    auditHandlers.list(),
    ...metricsDefaultHandlers(),
    ...revenueDefaultHandlers(),
    ...customerDefaultHandlers(),
    ...maintenanceHandlers(),
    liveStreamHandlers.quiet(),
  ];
}
