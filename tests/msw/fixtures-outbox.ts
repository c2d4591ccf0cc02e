/**
 * Wire fixtures of the forum outbox (issue 9): an action answer whose forum update is queued on
 * the server (docs/api.md "discourse" → queued).
 */

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
