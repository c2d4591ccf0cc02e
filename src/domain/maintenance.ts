/**
 * Maintenance area shapes (§2 Maintenance, §3 Maintenance result, CONTRACT.md ping summary) and
 * their texts (§8). Pure and total: permissive input, never a throw.
 */
import { readNumber } from './stats';
import { MESSAGES, errorMessageOr, errorStatus } from './messages';

/** §2/§9: the result view shows at most this many detail rows. */
export const MAINTENANCE_DETAIL_LIMIT = 50;
/** §2/§9: example emails are listed at most this many. */
export const SAMPLE_EMAILS_LIMIT = 5;

type Bag = Record<string, unknown>;
const asBag = (v: unknown): Bag =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Bag) : {};

/** A ping summary (CONTRACT.md): any of ok, status, success, version, error, message, reason. */
export interface PingSummary {
  ok?: boolean | null;
  status?: number | string | null;
  success?: boolean | null;
  version?: string | number | null;
  error?: unknown;
  message?: string | null;
  reason?: string | null;
  [key: string]: unknown;
}

/** One affected user of an expiration run (§3 "details (list with email)"). */
export interface MaintenanceDetailRow {
  email: string | null;
  [key: string]: unknown;
}

/** §3 Maintenance result, normalised. Counts are null when the server does not say. */
export interface MaintenanceResult {
  /** true for a preview (GET dryRun=true), false for an applied run; null when not reported. */
  dryRun: boolean | null;
  processed: number | null;
  affectedCount: number | null;
  /** Every detail row sent; the view shows the first MAINTENANCE_DETAIL_LIMIT. */
  details: MaintenanceDetailRow[];
  /** Example emails; the view lists the first SAMPLE_EMAILS_LIMIT. */
  sampleEmails: string[];
  meta: unknown;
  /** The answer as sent, for the raw JSON view. */
  raw: unknown;
}

function toDetailRows(value: unknown): MaintenanceDetailRow[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((item) => {
    if (typeof item === 'string') return { email: item };
    const bag = asBag(item);
    return { ...bag, email: typeof bag.email === 'string' ? bag.email : null };
  });
}

function countOf(value: unknown): number | null {
  if (Array.isArray(value)) return value.length;
  const n = readNumber(value);
  return n === null ? null : Math.round(n);
}

/**
 * An expiration-run answer → MaintenanceResult (§3). dryRun from dryRun or dry_run; details
 * from details, else preview.users, else an `affected` list; affectedCount from affected_count,
 * else affected / preview.affected (a number or a list's length), else the details' length;
 * sampleEmails from sample_emails, else the details' emails.
 */
export function normaliseMaintenanceResult(raw: unknown): MaintenanceResult {
  const bag = asBag(raw);
  const preview = asBag(bag.preview);
  const dry = bag.dryRun ?? bag.dry_run;
  const details =
    toDetailRows(bag.details) ?? toDetailRows(preview.users) ?? toDetailRows(bag.affected) ?? [];
  const sample = Array.isArray(bag.sample_emails)
    ? bag.sample_emails.filter((e): e is string => typeof e === 'string')
    : details.map((d) => d.email).filter((e): e is string => !!e);
  return {
    dryRun: typeof dry === 'boolean' ? dry : dry === 'true' ? true : dry === 'false' ? false : null,
    processed: countOf(bag.processed),
    affectedCount:
      countOf(bag.affected_count) ??
      countOf(bag.affected) ??
      countOf(preview.affected) ??
      (details.length ? details.length : null),
    details,
    sampleEmails: sample,
    meta: bag.meta ?? null,
    raw,
  };
}

function show(value: unknown): string {
  if (value == null || value === '') return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The one-line ping summary (§2 Maintenance): ok/status/success, version, and error/message/
 * reason, as 'key: value' pairs joined with ' · ', e.g. 'ok: true · status: 200 · version: 3.2'.
 * Keys absent from the answer are left out; an empty answer gives '(empty response)'.
 */
export function summarisePing(summary: PingSummary | null | undefined): string {
  const bag = asBag(summary);
  const parts = ['ok', 'status', 'success', 'version', 'error', 'message', 'reason']
    .map((key) => [key, show(bag[key])] as const)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}: ${value}`);
  return parts.length ? parts.join(' · ') : '(empty response)';
}

/** The answer's own message: payload.message, else payload.error (non-blank strings), else null. */
function payloadMessage(payload: unknown): string | null {
  const bag = asBag(payload);
  for (const value of [bag.message, bag.error]) {
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}

/**
 * A maintenance failure's text (§8): the answer's message, else 'HTTP {status}' when an answer
 * came, else the no-answer text ('Request timed out') or 'Network error'. For an ApiError (it has
 * a `payload`) only the payload's message or error counts: the status text and 'Request failed'
 * that ApiError falls back to are not the answer's message, so a bare 502 reads 'HTTP 502'. The
 * §8 'Not Found – none of the candidate paths responded…' text is kept as it is.
 */
export function maintenanceErrorMessage(error: unknown): string {
  const status = errorStatus(error);
  if (status == null || status <= 0) return errorMessageOr(error, MESSAGES.networkError);
  const message = errorMessageOr(error, '');
  if (message === MESSAGES.candidatesNotFound) return message;
  const own =
    error !== null && typeof error === 'object' && 'payload' in error
      ? payloadMessage(error.payload)
      : message || null;
  return own ?? `HTTP ${status}`;
}

/** The §2 ping failure line: 'ping failed: {reason}'. */
export function pingFailureLine(error: unknown): string {
  return `ping failed: ${maintenanceErrorMessage(error)}`;
}

/** The maintenance actions (§2 Maintenance); only one runs at a time (§4). */
export type MaintenanceActionId =
  | 'dry-run'
  | 'run-now'
  | 'diag'
  | 'ping-discourse'
  | 'ping-lemonsqueezy'
  | 'ping-clickbank'
  | 'enforce'
  | `reconcile-${'lemonsqueezy' | 'clickbank'}-${'dry-run' | 'apply'}`;

/** The pings of §2: the forum, the billing store and the marketplace. */
export type PingTarget = 'discourse' | 'lemonsqueezy' | 'clickbank';

/** The marketplace ping's variant in the screen (§2): default (no which), secret or developer. */
export type ClickbankPingChoice = 'default' | 'secret' | 'developer';

/** What the result view shows for one finished action (a pure value, built by the screen). */
export type MaintenanceOutcome =
  | { kind: 'expiration'; result: MaintenanceResult }
  | { kind: 'ping'; target: PingTarget; summary: PingSummary }
  | { kind: 'enforce'; email: string; answer: unknown }
  | { kind: 'failure'; action: MaintenanceActionId; message: string };

/** The display names of the ping targets (§2: forum, billing store, marketplace). */
export const PING_TARGET_LABELS: Record<PingTarget, string> = {
  discourse: 'Forum (Discourse)',
  lemonsqueezy: 'LemonSqueezy',
  clickbank: 'ClickBank',
};

/** One diagnostics key/value pair: a dotted path and its display text. */
export interface DiagPair {
  key: string;
  value: string;
}

/**
 * Flattens the free-form diagnostics object (CONTRACT.md) into key/value pairs in the server's
 * order: nested objects become dotted keys ('counts.members.active'), arrays and scalars their
 * text ('001_init, 002_list_indexes', 'yes'/'no' for booleans, '—' for null). At most `limit`
 * pairs (default 200); never throws.
 */
export function flattenDiag(raw: unknown, limit = 200): DiagPair[] {
  const out: DiagPair[] = [];
  const walk = (value: unknown, key: string, depth: number) => {
    if (out.length >= limit) return;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 5) {
      const entries = Object.entries(value as Bag);
      if (entries.length === 0 && key) out.push({ key, value: '{}' });
      for (const [k, v] of entries) walk(v, key ? `${key}.${k}` : k, depth + 1);
      return;
    }
    if (!key) return;
    let text: string;
    if (value == null) text = '—';
    else if (typeof value === 'boolean') text = value ? 'yes' : 'no';
    else if (Array.isArray(value))
      text = value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
    else if (typeof value === 'object') text = JSON.stringify(value);
    else text = String(value);
    out.push({ key, value: text });
  };
  walk(raw, '', 0);
  return out;
}
