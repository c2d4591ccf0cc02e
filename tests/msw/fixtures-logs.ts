/**
 * Log entries in wire shape (§3 Log entry, docs/api.md GET /logs), latest first, relative to the
 * pinned clock FIXTURE_NOW: every level, contexts of several shapes (object, nested, none), a long
 * message and a redacted field, as the reference server writes them.
 */
import { FIXTURE_NOW } from './fixtures';

/** GET /logs row as sent. */
export interface LogRowWire {
  id: number;
  ts: string;
  level: string;
  msg: string;
  context: unknown;
}

const NOW_MS = Date.parse(FIXTURE_NOW);
const at = (secondsAgo: number) => new Date(NOW_MS - secondsAgo * 1000).toISOString();

/** Twelve entries, newest first, covering the six §9 levels. */
export const LOG_ROWS: LogRowWire[] = [
  {
    id: 412,
    ts: at(4),
    level: 'info',
    msg: 'GET /api/admin/users 200',
    context: { ms: 18, rows: 50 },
  },
  {
    id: 411,
    ts: at(31),
    level: 'warn',
    msg: 'Discourse rate limited the group invite; retrying',
    context: { email: 'grace@example.com', status: 429, wait_seconds: 12 },
  },
  {
    id: 410,
    ts: at(75),
    level: 'error',
    msg: 'LemonSqueezy refresh failed',
    context: { subscription_id: 48213, error: { status: 502, message: 'Bad gateway' } },
  },
  { id: 409, ts: at(122), level: 'debug', msg: 'expiration dry run: 3 due', context: { due: 3 } },
  { id: 408, ts: at(180), level: 'trace', msg: 'cache hit stats', context: null },
  {
    id: 407,
    ts: at(240),
    level: 'fatal',
    msg: 'database unavailable: connection terminated unexpectedly',
    context: { code: 'ECONNRESET' },
  },
  {
    id: 406,
    ts: at(300),
    level: 'info',
    msg: 'sign-in failed',
    context: { code: 'INCORRECT_PASSWORD', password: '[redacted]' },
  },
  {
    id: 405,
    ts: at(420),
    level: 'info',
    msg:
      'ClickBank order imported for a customer whose receipt, affiliate and tracking code were all present ' +
      'in the Instant Notification, with vendor variables carried over into the ISR event',
    context: { receipt: 'Q7XK2M9P', affiliate: 'topreviews', tid: 'fb-nov-12' },
  },
  { id: 404, ts: at(600), level: 'warn', msg: 'slow query', context: { ms: 812, route: '/stats' } },
  { id: 403, ts: at(900), level: 'info', msg: 'server started', context: { port: 8080 } },
  { id: 402, ts: at(1200), level: 'debug', msg: 'migrations applied', context: { applied: [] } },
  { id: 401, ts: at(1500), level: 'info', msg: 'demo data seeded', context: { customers: 3000 } },
];

/** `n` generated entries (levels cycling), newest first, for paging stories. */
export function makeLogRows(n: number): LogRowWire[] {
  const levels = ['info', 'debug', 'warn', 'info', 'error', 'trace'];
  return Array.from({ length: n }, (_, i) => ({
    id: 10_000 + n - i,
    ts: at(i * 7),
    level: levels[i % levels.length] ?? 'info',
    msg: `request ${n - i} handled`,
    context: { n: n - i },
  }));
}
