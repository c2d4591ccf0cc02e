/**
 * Wire fixtures of the forum outbox: an action answer whose forum update is queued on the server
 * (docs/api.md "discourse" → queued).
 */
import { expirationWire } from './fixtures-maintenance';

/** POST /users/actions/grant answered while the forum update still runs in the background. */
export const ACTION_QUEUED_WIRE = {
  ok: true,
  email: 'ada@example.com',
  mg_status: 'active',
  expires_at: null,
  scheduled_expires_at: null,
  discourse: {
    queued: true,
    job_id: 17,
    reason: 'the forum is updated in the background',
  },
};

/**
 * An applied expiration run (POST /maintenance/run-expiration `{dryRun:false}`) over `emails`
 * with Discourse configured, whose forum revokes ended in turn as done, queued (not run yet),
 * queued after a failed attempt, and failed — the outcomes the outbox reports after its short wait.
 */
export function expirationForumWire(emails: string[]): Record<string, unknown> {
  const outcomes = [
    { ok: true, status: 200 },
    { queued: true, job_id: 2, reason: 'the forum is updated in the background' },
    {
      queued: true,
      job_id: 3,
      reason: 'attempt 1 failed: HTTP 503; retrying at 2026-11-20 12:00:05 UTC',
      next_attempt_at: '2026-11-20T12:00:05.000Z',
      last_status: 503,
      last_error: 'HTTP 503',
    },
    { ok: false, status: 422, error: 'Invalid group' },
  ];
  const wire = expirationWire(emails, false);
  const details = (wire.details as Record<string, unknown>[]).map((d, i) => ({
    ...d,
    discourse: outcomes[i % outcomes.length],
  }));
  return { ...wire, details };
}
