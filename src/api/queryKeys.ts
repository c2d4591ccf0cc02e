/**
 * Every TanStack Query key of the console, in one object, so invalidation is by prefix:
 * `queryKeys.users.all()` covers every users page. List keys carry the exact request
 * parameters (already trimmed, blanks dropped), so equal requests share one cache entry.
 */
import type { QueryParams } from './client';

const root = ['admin'] as const;

/** Query keys by resource (§7 call table). */
export const queryKeys = {
  /** Everything the console caches. */
  all: () => root,
  auth: {
    whoami: () => [...root, 'auth', 'whoami'] as const,
    backendCheck: () => [...root, 'auth', 'backend-check'] as const,
  },
  health: {
    api: () => [...root, 'health'] as const,
    db: () => [...root, 'health', 'db'] as const,
  },
  stats: () => [...root, 'stats'] as const,
  status: () => [...root, 'status'] as const,
  users: {
    all: () => [...root, 'users'] as const,
    list: (params: Record<string, string>) => [...root, 'users', 'list', params] as const,
  },
  subscriptions: {
    all: () => [...root, 'subscriptions'] as const,
    list: (params: Record<string, string>) => [...root, 'subscriptions', 'list', params] as const,
    detail: (params: QueryParams) => [...root, 'subscriptions', 'detail', params] as const,
    clickbankOrders: (email: string) =>
      [...root, 'subscriptions', 'clickbank-orders', email] as const,
  },
  logs: {
    all: () => [...root, 'logs'] as const,
    list: (params: QueryParams) => [...root, 'logs', 'list', params] as const,
  },
  maintenance: {
    all: () => [...root, 'maintenance'] as const,
    diag: () => [...root, 'maintenance', 'diag'] as const,
    expirationPreview: () => [...root, 'maintenance', 'expiration-preview'] as const,
  },
  metrics: {
    all: () => [...root, 'metrics'] as const,
    overview: (params: QueryParams) => [...root, 'metrics', 'overview', params] as const,
  },
  webhooks: {
    all: () => [...root, 'webhooks'] as const,
    list: (params: QueryParams) => [...root, 'webhooks', 'list', params] as const,
    detail: (id: string) => [...root, 'webhooks', 'detail', id] as const,
  },
  account: {
    sessions: () => [...root, 'account', 'sessions'] as const,
  },
  operators: {
    all: () => [...root, 'operators'] as const,
    list: () => [...root, 'operators', 'list'] as const,
  },
  audit: {
    all: () => [...root, 'audit'] as const,
    list: (params: QueryParams) => [...root, 'audit', 'list', params] as const,
  },
  customers: {
    all: () => [...root, 'customers'] as const,
    /** Everything of one customer: the record and every timeline filter. */
    one: (email: string) => [...root, 'customers', email] as const,
    detail: (email: string) => [...root, 'customers', email, 'detail'] as const,
    timeline: (email: string, kinds: string) =>
      [...root, 'customers', email, 'timeline', kinds] as const,
  },
  search: (q: string) => [...root, 'search', q] as const,
  isr: {
    all: () => [...root, 'isr'] as const,
    summary: (params: QueryParams) => [...root, 'isr', 'summary', params] as const,
    daily: (params: QueryParams) => [...root, 'isr', 'daily', params] as const,
    affiliates: (params: QueryParams) => [...root, 'isr', 'affiliates', params] as const,
    events: (params: QueryParams) => [...root, 'isr', 'events', params] as const,
  },
} as const;
