/**
 * The audit trail (docs/api.md "Audit"; server/routes/audit.ts): who did
 * what to whom, when, from where, and with what outcome. The Audit list filters by operator,
 * action (one action or a group such as 'access' = every 'access.*'), target and a UTC time
 * range, newest first, 50/100/200 rows. Pure.
 */
import { defaultListQuery, listQueryToSearch, type ListSpec } from './list';
import type { Tone } from './types';

/** The dotted actions the server records (server/audit), grouped by their prefix. */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.password_change',
  'auth.password_check_failed',
  'auth.session_end',
  'auth.totp_setup',
  'auth.totp_enable',
  'auth.totp_disable',
  'auth.policy_change',
  'operator.create',
  'operator.invite_accept',
  'operator.update',
  'operator.disable',
  'operator.enable',
  'access.grant',
  'access.grant_on_date',
  'access.revoke_now',
  'access.revoke_deferred',
  'access.revoke_on_date',
  'maintenance.enforce_now',
  'maintenance.run_expiration',
  'maintenance.ping_discourse',
  'maintenance.ping_lemonsqueezy',
  'maintenance.ping_clickbank',
  'subscriptions.refresh',
  'webhook.replay',
  'reconcile.apply',
  'forum.retry',
] as const;

/** The action groups in the order of {@link AUDIT_ACTIONS}: 'access' matches every 'access.*'. */
export const AUDIT_ACTION_GROUPS: readonly string[] = [
  ...new Set(AUDIT_ACTIONS.map((action) => action.slice(0, action.indexOf('.')))),
];

/** What the Action filter offers: each group, followed by its own actions. */
export const AUDIT_ACTION_FILTERS: readonly string[] = AUDIT_ACTION_GROUPS.flatMap((group) => [
  group,
  ...AUDIT_ACTIONS.filter((action) => action.startsWith(`${group}.`)),
]);

/** The Action filter's label of a group ('access' → 'access.* (every access action)'). */
export function auditActionFilterLabel(value: string): string {
  return value.includes('.') ? value : `${value}.* (every ${value} action)`;
}

/** The outcome of an audited request (server/audit/audit.ts AuditOutcome). */
export const AUDIT_OUTCOMES = ['ok', 'failed', 'refused'] as const;
/** One of AUDIT_OUTCOMES. */
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Operator-facing words of each outcome: the badge's text, so colour is never alone. */
export const AUDIT_OUTCOME_LABELS: Readonly<Record<AuditOutcome, string>> = {
  ok: 'OK',
  failed: 'Failed',
  refused: 'Refused',
};

/** The tone of an outcome's badge: a refusal (403, a lockout) warns; a failure is danger. */
export function auditOutcomeTone(outcome: AuditOutcome): Tone {
  if (outcome === 'ok') return 'success';
  return outcome === 'refused' ? 'warning' : 'danger';
}

/** Whether a wire value is one of the known outcomes. */
export function isAuditOutcome(value: unknown): value is AuditOutcome {
  return typeof value === 'string' && (AUDIT_OUTCOMES as readonly string[]).includes(value);
}

/** The Audit filter values; '' means "any". `from`/`to` are UTC datetime-local values. */
export interface AuditFilters {
  /** An operator's email (exact, case-insensitive on the server). */
  operator: string;
  /** One of {@link AUDIT_ACTION_FILTERS}: an action or a group. */
  action: string;
  /** A customer email or an operator's email (exact, case-insensitive). */
  target: string;
  from: string;
  to: string;
}

/** The one order audit rows come in (newest first); not an operator's choice. */
export type AuditSortKey = 'at';

/** Rows choices (page sizes) and the default. */
export const AUDIT_PAGE_SIZES = [50, 100, 200] as const;
/** 50 rows by default (the server's default too). */
export const AUDIT_DEFAULT_PAGE_SIZE = 50;
/** How many rows a customer's drawer lists (the newest). */
export const CUSTOMER_AUDIT_PAGE_SIZE = 20;
/** The export asks for pages of this many rows: the server's largest page. */
export const AUDIT_EXPORT_PAGE_SIZE = 200;
/** The export stops after this many rows (the server's count cap too). */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

/** GET /audit: page, pageSize, operator, action, target, from, to (blanks dropped). */
export const AUDIT_LIST: ListSpec<AuditFilters, AuditSortKey> = {
  fields: {
    operator: { param: 'operator', kind: 'text' },
    action: { param: 'action', kind: 'select', options: AUDIT_ACTION_FILTERS },
    target: { param: 'target', kind: 'text' },
    from: { param: 'from', kind: 'datetime' },
    to: { param: 'to', kind: 'datetime' },
  },
  sortKeys: ['at'],
  defaultSort: { key: 'at', direction: 'desc' },
  sortEncoding: 'none',
  pageSizes: AUDIT_PAGE_SIZES,
  defaultPageSize: AUDIT_DEFAULT_PAGE_SIZE,
};

/** The Audit screen's address (relative to the console's basename) filtered by one target. */
export function auditPathForTarget(target: string): string {
  const query = defaultListQuery(AUDIT_LIST);
  const search = listQueryToSearch(AUDIT_LIST, { ...query, filters: { ...query.filters, target } });
  return `/audit?${search.toString()}`;
}

/** One audit row, normalised. */
export interface AuditEntry {
  id: string;
  /** ISO instant (UTC), or null. */
  at: string | null;
  /** Who acted; null for an unknown caller (e.g. a failed sign-in of no operator). */
  operatorEmail: string | null;
  /** A dotted action, e.g. 'access.grant'. */
  action: string;
  /** A customer email or an operator's email, or null. */
  target: string | null;
  outcome: AuditOutcome;
  ip: string | null;
  /** The raw User-Agent header; see {@link summariseUserAgent}. */
  userAgent: string | null;
  /** The short before/after detail (a JSON object, under 2 KB), or null. */
  detail: unknown;
}

/** One page of audit rows (GET /audit). */
export interface AuditPage {
  rows: AuditEntry[];
  /** Matching rows, counted up to 10,000 (see isTotalCapped). */
  total: number;
  totalPages: number;
  /** The server stopped counting at `total`: show '10,000+'. */
  isTotalCapped: boolean;
}

/* ------------------------------------------------------------------------------------------ */
/* One-line summaries                                                                          */
/* ------------------------------------------------------------------------------------------ */

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A detail value in a summary: text as is, null as 'none', anything else as compact JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A field's change: 'mg_status active → cancelled'; unchanged fields are left out. */
function changes(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${key} ${shown(before[key])} → ${shown(after[key])}`);
}

/**
 * The before/after detail on one line, e.g. {before:{mg_status:'active'}, after:{mg_status:
 * 'cancelled'}} → 'mg_status active → cancelled'; {role:{before:'viewer', after:'admin'}} →
 * 'role viewer → admin'; other fields as 'key: value'; parts joined by '; '. Null when there is
 * nothing to show. Never throws.
 */
export function summariseAuditDetail(detail: unknown): string | null {
  if (detail === null || detail === undefined || detail === '') return null;
  if (!isRecord(detail)) return shown(detail);
  if (detail.truncated === true) return `(truncated) ${shown(detail.excerpt ?? '')}`;
  const parts: string[] = [];
  const { before, after, ...rest } = detail;
  if (isRecord(before) && isRecord(after)) {
    const changed = changes(before, after);
    parts.push(...(changed.length > 0 ? changed : ['no change']));
  } else {
    if (before !== undefined) rest.before = before;
    if (after !== undefined) rest.after = after;
  }
  for (const [key, value] of Object.entries(rest)) {
    if (isRecord(value) && 'before' in value && 'after' in value) {
      parts.push(`${key} ${shown(value.before)} → ${shown(value.after)}`);
    } else {
      parts.push(`${key}: ${shown(value)}`);
    }
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

/** Browsers and clients by their User-Agent token, most specific first (Edge says Chrome too). */
const BROWSERS: readonly (readonly [name: string, token: RegExp])[] = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /OPR\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+(?:\.\d+)?)/],
  ['Node', /^node(?:-fetch)?(?:\/(\d+))?/i],
];

/** Operating systems by their User-Agent token; iOS before macOS (iPads claim Mac OS X). */
const SYSTEMS: readonly (readonly [name: string, token: RegExp])[] = [
  ['iOS', /iPhone|iPad|iPod/],
  ['Android', /Android/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['ChromeOS', /CrOS/],
  ['Linux', /Linux/],
];

/**
 * A User-Agent in a few words: 'Chrome 131 on macOS', 'Firefox 133 on Windows', 'curl 8.4';
 * an unknown client shows its first token ('HeadlessThing/1.0'). Null when there is none.
 */
export function summariseUserAgent(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  const browser = BROWSERS.find(([, token]) => token.test(ua));
  const system = SYSTEMS.find(([, token]) => token.test(ua))?.[0];
  if (!browser) return ua.split(/\s+/)[0] ?? ua;
  const version = browser[1].exec(ua)?.[1];
  const name = version ? `${browser[0]} ${version}` : browser[0];
  return system ? `${name} on ${system}` : name;
}
