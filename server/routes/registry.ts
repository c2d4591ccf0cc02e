/**
 * Feature routers mounted under the API prefix behind authentication. Each entry builds a Hono
 * router from the shared dependencies; server/app.ts mounts them all with `api.route('/', r)`.
 */
import type { Hono } from 'hono';
import type { AppDeps } from '../context';
import { auditRoutes } from './audit';
import { clickbankRoutes } from './clickbank';
import { customersRoutes } from './customers';
import { isrRoutes } from './isr';
import { logsRoutes } from './logs';
import { maintenanceRoutes } from './maintenance';
import { metricsRoutes } from './metrics';
import { revenueRoutes } from '../revenue/routes';
import { subscriptionsRoutes } from './subscriptions';
import { usersRoutes } from './users';
import { webhookDeliveriesRoutes } from './webhookDeliveries';

/** A feature router factory. Paths inside are relative to the API prefix (e.g. '/users'). */
export type RouteFactory = (deps: AppDeps) => Hono;

export const featureRoutes: RouteFactory[] = [
  usersRoutes,
  (deps) => subscriptionsRoutes(deps),
  clickbankRoutes,
  maintenanceRoutes,
  metricsRoutes,
  revenueRoutes,
  isrRoutes,
  logsRoutes,
  auditRoutes,
  webhookDeliveriesRoutes,
  customersRoutes,
];
