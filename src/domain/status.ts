/**
 * Status rules of specification §4: badge text, colour (tone) and the "active user" count.
 * Pure; `now` is injectable so stories and tests run at a fixed clock.
 */
import { formatUtcDateTime, parseUtc, DASH } from './format';
import type { Tone, UserRow } from './types';

/** A badge to render: its text, tone and optional tooltip. */
export interface BadgeSpec {
  text: string;
  tone: Tone;
  /** Tooltip, e.g. 'Scheduled to expire at 2026-12-01 09:00 (UTC)'. */
  title?: string;
}

/**
 * Provider / subscription status colouring (§4): active, trialing green; paused, past_due yellow;
 * cancelled red; anything else grey. A missing status is a grey dash.
 */
export function providerStatusBadge(status: string | null | undefined): BadgeSpec {
  const value = String(status ?? '').trim();
  if (!value) return { text: DASH, tone: 'neutral' };
  switch (value.toLowerCase()) {
    case 'active':
    case 'trialing':
    case 'on_trial':
      return { text: value, tone: 'success' };
    case 'paused':
    case 'past_due':
      return { text: value, tone: 'warning' };
    case 'cancelled':
    case 'canceled':
      return { text: value, tone: 'danger' };
    default:
      return { text: value, tone: 'neutral' };
  }
}

function isFuture(value: string | null | undefined, now: Date): boolean {
  const d = parseUtc(value);
  return d != null && d.getTime() > now.getTime();
}

/**
 * The access (mg_status) badge (§4). The label takes precedence: starting with 'Active' → green,
 * or yellow when it mentions cancel; mentioning expired or cancel → red; other labels grey.
 * Without a label: active with a future expiry → 'Scheduled' (yellow, tooltip with the UTC time);
 * active → 'Active' (green); cancelled → 'Cancelled' (red); anything else a dash.
 */
export function mgStatusBadge(
  row: Pick<UserRow, 'mgStatus' | 'mgStatusLabel' | 'expiresAt'>,
  now: Date = new Date(),
): BadgeSpec {
  const label = String(row.mgStatusLabel ?? '').trim();
  if (label) {
    const lower = label.toLowerCase();
    if (lower.startsWith('active')) {
      return { text: label, tone: lower.includes('cancel') ? 'warning' : 'success' };
    }
    if (lower.includes('expired') || lower.includes('cancel'))
      return { text: label, tone: 'danger' };
    return { text: label, tone: 'neutral' };
  }
  const status = String(row.mgStatus ?? '')
    .trim()
    .toLowerCase();
  if (status === 'active' && isFuture(row.expiresAt, now)) {
    return {
      text: 'Scheduled',
      tone: 'warning',
      title: `Scheduled to expire at ${formatUtcDateTime(row.expiresAt)} (UTC)`,
    };
  }
  if (status === 'active') return { text: 'Active', tone: 'success' };
  if (status === 'cancelled') return { text: 'Cancelled', tone: 'danger' };
  return { text: DASH, tone: 'neutral' };
}

/**
 * Whether a user counts as active for the page count (§4): the label starts with 'active', or
 * mg_status is active (which also covers a future expiry while active).
 */
export function isActiveUser(
  row: Pick<UserRow, 'mgStatus' | 'mgStatusLabel' | 'expiresAt'>,
  now: Date = new Date(),
): boolean {
  const label = String(row.mgStatusLabel ?? '')
    .trim()
    .toLowerCase();
  const status = String(row.mgStatus ?? '')
    .trim()
    .toLowerCase();
  // §4 also lists "the expiry is in the future while mg_status is active"; that case is already
  // covered by mg_status active, so `now` only matters for the documented signature.
  void now;
  return label.startsWith('active') || status === 'active';
}

/** Log level colouring (§2 Logs): trace/debug grey, info blue, warn yellow, error red, fatal purple. */
export function logLevelTone(level: string | null | undefined): Tone {
  switch (String(level ?? '').toLowerCase()) {
    case 'info':
      return 'info';
    case 'warn':
      return 'warning';
    case 'error':
      return 'danger';
    case 'fatal':
      return 'done';
    default:
      return 'neutral';
  }
}
