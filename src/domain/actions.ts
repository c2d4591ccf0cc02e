/**
 * Alerts for the forum-access actions (§2 Users "Edit actions", §8 action results). Pure.
 */
import { formatUtcDateTime, parseUtc } from './format';
import { errorMessageOr, MESSAGES } from './messages';
import type { AccessAction, AccessActionKind, ActionResult, DiscourseOutcome } from './types';

/** An alert to show after an action: its tone and text. */
export interface ActionAlert {
  tone: 'success' | 'warning' | 'danger';
  message: string;
}

/** One entry of the Edit-actions menu (§2 Users). */
export interface AccessActionEntry {
  kind: AccessActionKind;
  /** The §2 wording in sentence case, e.g. 'Revoke at renewal (deferred)'. */
  label: string;
  /** Whether the action asks for a date first (grant until / revoke on a date). */
  needsDate: boolean;
  /** Whether the action takes forum access away (the revocations, shown after a separator). */
  isDestructive: boolean;
}

/**
 * The Edit-actions menu entries (§2 Users: "grant now; grant until a date; revoke now; revoke at
 * renewal (deferred); revoke on a date"), in menu order: the one source of their labels.
 */
export const ACCESS_ACTIONS: readonly AccessActionEntry[] = [
  { kind: 'grant', label: 'Grant now', needsDate: false, isDestructive: false },
  { kind: 'grant_on_date', label: 'Grant until a date', needsDate: true, isDestructive: false },
  { kind: 'revoke_now', label: 'Revoke now', needsDate: false, isDestructive: true },
  {
    kind: 'revoke_deferred',
    label: 'Revoke at renewal (deferred)',
    needsDate: false,
    isDestructive: true,
  },
  { kind: 'revoke_on_date', label: 'Revoke on a date', needsDate: true, isDestructive: true },
];

/**
 * Builds the AccessAction for a menu kind; `wireDateTime` ('YYYY-MM-DD HH:MM:SS' UTC, from
 * toWireDateTime) is required by grant_on_date (as `until`) and revoke_on_date (as `date`).
 * Returns null when a dated action has no date.
 */
export function makeAccessAction(
  kind: AccessActionKind,
  wireDateTime?: string | null,
): AccessAction | null {
  switch (kind) {
    case 'grant_on_date':
      return wireDateTime ? { kind, until: wireDateTime } : null;
    case 'revoke_on_date':
      return wireDateTime ? { kind, date: wireDateTime } : null;
    default:
      return { kind };
  }
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
}

type DiscourseClause =
  { kind: 'error'; text: string } | { kind: 'ok'; text: string } | { kind: 'none' };

/**
 * What the forum said, in this precedence: queued → 'Discourse update queued: {reason}' (the
 * server runs it in the background); an error string → error; skipped → 'Discourse
 * skipped: {reason}'; ok === false → error; invited → 'Discourse invite sent to group {id}';
 * ok or a status → 'Discourse updated'; otherwise nothing to say.
 */
function discourseClause(d: DiscourseOutcome | null): DiscourseClause {
  if (!d) return { kind: 'none' };
  if (d.queued) {
    const reason = text(d.reason);
    return {
      kind: 'ok',
      text: reason ? `Discourse update queued: ${reason}` : 'Discourse update queued',
    };
  }
  if (text(d.error) || (d.ok === false && !d.skipped)) {
    const status = text(d.status);
    const details = (d.errors ?? []).map(text).filter(Boolean).join('; ');
    const body = [text(d.error), details].filter(Boolean).join(' — ');
    return {
      kind: 'error',
      text: `Done, but Discourse error${status ? ` (${status})` : ''}${body ? `: ${body}` : ''}`,
    };
  }
  if (d.skipped) {
    const reason = text(d.reason);
    return { kind: 'ok', text: reason ? `Discourse skipped: ${reason}` : 'Discourse skipped' };
  }
  if (d.invited) {
    const group = text(d.groupId);
    return {
      kind: 'ok',
      text: group ? `Discourse invite sent to group ${group}` : 'Discourse invite sent',
    };
  }
  if (d.ok === true || d.status != null) return { kind: 'ok', text: 'Discourse updated' };
  return { kind: 'none' };
}

/**
 * The §8 alert for an action result, copying its texts exactly:
 * - forum error: 'Done, but Discourse error ({status}): {message} — {details}' (warning: the
 *   access change itself was done), details = payload errors joined with '; '; a missing
 *   status, message or details is left out with its punctuation;
 * - 'OK (scheduled for {YYYY-MM-DD HH:MM} UTC)' when the revocation is scheduled;
 * - 'OK (Discourse invite sent to group {id})', 'OK (Discourse updated)',
 *   'OK (Discourse skipped: {reason})';
 * - 'OK (Discourse update queued: {reason})' when the server queued the forum update;
 * - plain 'OK'.
 * Nothing is lost when both a schedule and a forum outcome exist: they share the parentheses,
 * 'OK (scheduled for 2026-12-01 09:00 UTC; Discourse updated)', and a forum error gets the
 * schedule appended, '… (scheduled for 2026-12-01 09:00 UTC)'.
 */
export function describeActionResult(result: ActionResult): ActionAlert {
  const scheduled = parseUtc(result.scheduledExpiresAt)
    ? `scheduled for ${formatUtcDateTime(result.scheduledExpiresAt)} UTC`
    : null;
  const clause = discourseClause(result.discourse);
  if (clause.kind === 'error') {
    return { tone: 'warning', message: scheduled ? `${clause.text} (${scheduled})` : clause.text };
  }
  const parts = [scheduled, clause.kind === 'ok' ? clause.text : null].filter(
    (p): p is string => p !== null,
  );
  return { tone: 'success', message: parts.length ? `OK (${parts.join('; ')})` : 'OK' };
}

/** The §8 failure alert text: the error's message, or 'Request failed'. */
export function describeActionError(error: unknown): string {
  return errorMessageOr(error, MESSAGES.requestFailed);
}

/** describeActionError as a danger-toned alert, for views that render every alert alike. */
export function actionErrorAlert(error: unknown): ActionAlert {
  return { tone: 'danger', message: describeActionError(error) };
}
