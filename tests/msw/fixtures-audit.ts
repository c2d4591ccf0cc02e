/**
 * Audit rows in wire shape (docs/api.md "Audit", server/routes/audit.ts), newest first, relative
 * to the pinned clock FIXTURE_NOW: every outcome, the detail shapes the server writes (before/after
 * objects, a field's own before/after, plain fields, a truncation note, none), sign-ins with no
 * operator, and the user agents of common browsers and of curl.
 */
import { FIXTURE_NOW } from './fixtures';

/** GET /audit row as sent. */
export interface AuditRowWire {
  id: number;
  at: string;
  operator_email: string | null;
  action: string;
  target: string | null;
  outcome: string;
  ip: string | null;
  user_agent: string | null;
  detail: unknown;
}

const NOW_MS = Date.parse(FIXTURE_NOW);
const at = (minutesAgo: number) => new Date(NOW_MS - minutesAgo * 60_000).toISOString();

/** User agents as browsers and clients send them. */
export const USER_AGENTS = {
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  curl: 'curl/8.4.0',
} as const;

/** A very long customer address, to prove targets end in an ellipsis and read out whole. */
export const LONG_TARGET =
  'a.very.long.customer.address.with.many.parts.for.testing.layouts@subdomain.example-company.example.com';

/** Twelve rows, newest first, covering every outcome and detail shape. */
export const AUDIT_ROWS: AuditRowWire[] = [
  {
    id: 912,
    at: at(2),
    operator_email: 'support@example.com',
    action: 'access.revoke_now',
    target: 'johndoe@example.com',
    outcome: 'ok',
    ip: '203.0.113.24',
    user_agent: USER_AGENTS.chromeMac,
    detail: {
      before: { mg_status: 'active', expires_at: null },
      after: { mg_status: 'cancelled', expires_at: '2026-11-20T11:58:00.000Z' },
    },
  },
  {
    id: 911,
    at: at(9),
    operator_email: 'viewer@example.com',
    action: 'access.grant',
    target: 'grace@example.com',
    outcome: 'refused',
    ip: '198.51.100.7',
    user_agent: USER_AGENTS.firefoxWindows,
    detail: { code: 'FORBIDDEN', role: 'viewer' },
  },
  {
    id: 910,
    at: at(14),
    operator_email: null,
    action: 'auth.login_failed',
    target: 'admin@example.com',
    outcome: 'failed',
    ip: '192.0.2.200',
    user_agent: USER_AGENTS.curl,
    detail: { code: 'INVALID_CREDENTIALS' },
  },
  {
    id: 909,
    at: at(31),
    operator_email: 'admin@example.com',
    action: 'operator.update',
    target: 'support@example.com',
    outcome: 'ok',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.edgeWindows,
    detail: { role: { before: 'viewer', after: 'support' } },
  },
  {
    id: 908,
    at: at(47),
    operator_email: 'admin@example.com',
    action: 'operator.create',
    target: 'support@example.com',
    outcome: 'ok',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.edgeWindows,
    detail: { name: 'Sam Support', role: 'viewer', invite_expires_at: '2026-11-23T11:13:00.000Z' },
  },
  {
    id: 907,
    at: at(60),
    operator_email: 'support@example.com',
    action: 'access.grant',
    target: 'johndoe@example.com',
    outcome: 'ok',
    ip: '203.0.113.24',
    user_agent: USER_AGENTS.safariIphone,
    detail: {
      before: { mg_status: 'expired', expires_at: '2026-11-01T00:00:00.000Z' },
      after: { mg_status: 'active', expires_at: null },
    },
  },
  {
    id: 906,
    at: at(95),
    operator_email: 'admin@example.com',
    action: 'maintenance.enforce_now',
    target: 'grace@example.com',
    outcome: 'ok',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.chromeMac,
    detail: {
      before: { mg_status: 'active', expires_at: '2026-11-19T00:00:00.000Z' },
      changed: true,
    },
  },
  {
    id: 905,
    at: at(130),
    operator_email: 'admin@example.com',
    action: 'maintenance.ping_discourse',
    target: null,
    outcome: 'failed',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.chromeMac,
    detail: { status: 502, message: 'Discourse did not answer' },
  },
  {
    id: 904,
    at: at(180),
    operator_email: 'owner@example.com',
    action: 'auth.policy_change',
    target: null,
    outcome: 'ok',
    ip: '2001:db8::1',
    user_agent: USER_AGENTS.firefoxWindows,
    detail: { require_totp: { before: false, after: true } },
  },
  {
    id: 903,
    at: at(240),
    operator_email: 'admin@example.com',
    action: 'auth.login',
    target: 'admin@example.com',
    outcome: 'ok',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.chromeMac,
    detail: { second_factor: 'totp' },
  },
  {
    id: 902,
    at: at(300),
    operator_email: 'admin@example.com',
    action: 'auth.logout',
    target: 'admin@example.com',
    outcome: 'ok',
    ip: '203.0.113.5',
    user_agent: null,
    detail: null,
  },
  {
    id: 901,
    at: at(400),
    operator_email: 'support@example.com',
    action: 'subscriptions.refresh',
    target: 'johndoe@example.com',
    outcome: 'ok',
    ip: null,
    user_agent: 'MG-Internal-Checker/2.1 (+https://example.com/bot)',
    detail: { refreshed: 1, message: 'Refreshed 1 subscription from LemonSqueezy' },
  },
];

/** Rows with long targets, long details (a truncation note, many fields) and a formula-like target. */
export const LONG_AUDIT_ROWS: AuditRowWire[] = [
  {
    id: 1003,
    at: at(1),
    operator_email:
      'a.really.long.operator.address.for.layouts@operations.example-company.example.com',
    action: 'access.revoke_on_date',
    target: LONG_TARGET,
    outcome: 'ok',
    ip: '2001:db8:85a3:0000:0000:8a2e:0370:7334',
    user_agent: USER_AGENTS.chromeMac,
    detail: {
      before: {
        mg_status: 'active',
        expires_at: null,
        note: 'Renewal pending with the provider; the customer asked by mail to end it at the period end.',
      },
      after: {
        mg_status: 'scheduled',
        expires_at: '2026-12-31T23:59:00.000Z',
        note: 'Ends at the period end as the customer asked; forum access kept until then.',
      },
    },
  },
  {
    id: 1002,
    at: at(5),
    operator_email: 'admin@example.com',
    action: 'reconcile.apply',
    target: '=HYPERLINK("https://example.com","click")',
    outcome: 'ok',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.firefoxWindows,
    detail: {
      provider: 'lemonsqueezy',
      subscription_id: '4821',
      missing: false,
      fields: ['mg_status', 'expires_at', 'cadence', 'amount_cents', 'provider_status'],
    },
  },
  {
    id: 1001,
    at: at(8),
    operator_email: 'admin@example.com',
    action: 'webhook.replay',
    target: LONG_TARGET,
    outcome: 'failed',
    ip: '203.0.113.5',
    user_agent: USER_AGENTS.firefoxWindows,
    detail: { truncated: true, excerpt: `{"payload":"${'x'.repeat(160)}` },
  },
];

/** `count` rows, newest first, one a minute back from FIXTURE_NOW, cycling through AUDIT_ROWS. */
export function makeAuditRows(count: number): AuditRowWire[] {
  return Array.from({ length: count }, (_, i) => {
    const base = AUDIT_ROWS[i % AUDIT_ROWS.length] as AuditRowWire;
    return { ...base, id: 100_000 - i, at: at(i + 1) };
  });
}
