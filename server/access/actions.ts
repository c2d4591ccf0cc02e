/**
 * The five forum-access actions of the Users screen (specification §2 "Edit actions menu", §7
 * POST /users/actions/*, §3 "Action response", §4 mg_status) and their /subscriptions twins.
 *
 * Semantics (mg_status, expires_at after the action):
 * - grant            → active, null (any scheduled revocation is cleared);
 * - grant_on_date    → active, `until` (must be in the future): access until then;
 * - revoke_now       → cancelled, now (an already-cancelled user keeps the original instant; the
 *                      forum revoke is still re-sent, so a failed forum sync can be retried);
 * - revoke_deferred  → active, the current billing period end of the user's subscription
 *                      (400 when there is none or it has passed);
 * - revoke_on_date   → active, `date` (must be in the future; use revoke_now for "now").
 * revoke_deferred and revoke_on_date on a cancelled user answer 409: they would re-open access.
 *
 * The member row, an info row in `logs` and the forum job in the outbox (grant and
 * grant_on_date → a grant job, revoke_now → a revoke job) are written in ONE transaction, so the
 * forum can neither miss a committed change nor see a rolled-back one. The job is written after
 * the member row's update, whose row lock orders concurrent changes of one user, so job ids follow
 * commit order. The forum worker (server/outbox/worker.ts) runs the job; a forum failure never
 * rolls access back. The answer waits briefly for the job (server/outbox/answer.ts): its outcome,
 * or `{queued:true, …}`. Scheduled revocations write no job: the forum is left alone until the
 * expiration run applies them (and writes their revoke job).
 */
import { recordAudit, type AuditActor } from '../audit/audit';
import type { AppDeps } from '../context';
import { ApiError, badRequest, notFound } from '../errors';
import { DISCOURSE_NOT_CONFIGURED } from '../discourse/client';
import { forumAnswer, type ForumAnswer } from '../outbox/answer';
import { z } from 'zod';
import { validate } from '../http/body';
import { dateTimeField, emailField } from '../http/fields';
import { iso } from './params';
import { recordAccessChange } from '../live/access';
import type { MgStatus } from '../vocabulary';
import { insertLog } from '../logRows';

/** The action names of POST /users/actions/{kind} (§7). */
export type AccessActionKind =
  'grant' | 'grant_on_date' | 'revoke_now' | 'revoke_deferred' | 'revoke_on_date';
export const ACCESS_ACTION_KINDS: readonly AccessActionKind[] = [
  'grant',
  'grant_on_date',
  'revoke_now',
  'revoke_deferred',
  'revoke_on_date',
];

/** A validated action request. `at` is the until/date instant (UTC) for the *_on_date actions. */
export interface AccessActionRequest {
  kind: AccessActionKind;
  email: string;
  at: Date | null;
}

/** The JSON answer of every action (docs/api.md). Instants are ISO UTC strings or null. */
export interface AccessActionResult {
  ok: true;
  email: string;
  mg_status: MgStatus;
  expires_at: string | null;
  scheduled_expires_at: string | null;
  discourse: ForumAnswer;
}

/** The body field carrying the date for each dated action (§7: grant_on_date {until}, revoke_on_date {date}). */
const DATE_FIELD: Partial<Record<AccessActionKind, 'until' | 'date'>> = {
  grant_on_date: 'until',
  revoke_on_date: 'date',
};

/**
 * The zod schema of the JSON body of action `kind` (§7): `{email}`, plus `{until}` for
 * grant_on_date and `{date}` for revoke_on_date ('YYYY-MM-DD HH:MM:SS' UTC) → AccessActionRequest.
 * Unknown keys are ignored. Run it with parseJsonBody (server/http/body.ts): a missing or
 * malformed field answers 400 with `issues` (e.g. [{path:'email', message:"'x' is not an email address"}]).
 */
export function actionBodySchema(kind: AccessActionKind): z.ZodType<AccessActionRequest> {
  const field = DATE_FIELD[kind];
  if (field === 'until') {
    return z
      .object({ email: emailField(), until: dateTimeField('until') })
      .transform((b) => ({ kind, email: b.email, at: b.until }));
  }
  if (field === 'date') {
    return z
      .object({ email: emailField(), date: dateTimeField('date') })
      .transform((b) => ({ kind, email: b.email, at: b.date }));
  }
  return z.object({ email: emailField() }).transform((b) => ({ kind, email: b.email, at: null }));
}

/** Validates an action body already read as a value → AccessActionRequest, or throws the 400 of actionBodySchema. */
export function parseActionBody(kind: AccessActionKind, body: unknown): AccessActionRequest {
  return validate(actionBodySchema(kind), body);
}

interface MemberState {
  id: number;
  mg_status: MgStatus;
  expires_at: Date | null;
  period_end: Date | null;
}

/**
 * Applies one access action for the user with `req.email` (§2, §7): updates the member row, writes
 * an 'access.<kind>' info log and the forum job in one transaction, then waits briefly for the job
 * → AccessActionResult.
 * Errors (nothing written): 404 unknown email, 400 date in the past / no billing period end,
 * 409 scheduled revocation of a user whose access is already cancelled.
 */
export async function applyAccessAction(
  deps: AppDeps,
  req: AccessActionRequest,
  opts: { actor?: AuditActor | null } = {},
): Promise<AccessActionResult> {
  const now = deps.now();
  const { kind, email } = req;
  const state = await deps.db.transaction(async (tx) => {
    const found = await tx.query<MemberState>(
      `SELECT m.id, m.mg_status, m.expires_at,
              CASE WHEN m.subscription_id IS NOT NULL THEN s.current_period_end
                   ELSE (SELECT s2.current_period_end FROM subscriptions s2 WHERE s2.customer_id = c.id
                         ORDER BY s2.start_date DESC, s2.id DESC LIMIT 1) END AS period_end
         FROM customers c
         JOIN members m ON m.customer_id = c.id
         LEFT JOIN subscriptions s ON s.id = m.subscription_id
        WHERE c.email = $1
          FOR UPDATE OF m`,
      [email],
    );
    const member = found.rows[0];
    if (!member) throw notFound(`No user with email ${email}`);

    const next = nextState(kind, member, req.at, now, email);
    await tx.query(
      'UPDATE members SET mg_status = $1, expires_at = $2, updated_at = $3 WHERE id = $4',
      [next.mgStatus, next.expiresAt, now, member.id],
    );
    await insertLog(tx, now, 'info', `access.${kind}`, {
      email,
      action: kind,
      mg_status: next.mgStatus,
      expires_at: iso(next.expiresAt),
      previous: { mg_status: member.mg_status, expires_at: iso(member.expires_at) },
      ...(opts.actor?.email ? { actor: opts.actor.email } : {}),
    });
    if (opts.actor) {
      await recordAudit(
        tx,
        opts.actor,
        {
          action: `access.${kind}`,
          target: email,
          detail: {
            before: { mg_status: member.mg_status, expires_at: iso(member.expires_at) },
            after: { mg_status: next.mgStatus, expires_at: iso(next.expiresAt) },
          },
        },
        now,
      );
    }
    // Forum job and live event in the same transaction: grants and revoke_now take
    // effect now; scheduled revocations write theirs when the expiration applies them.
    const forumAction =
      kind === 'grant' || kind === 'grant_on_date'
        ? 'grant'
        : kind === 'revoke_now'
          ? 'revoke'
          : null;
    const jobId = forumAction
      ? await recordAccessChange(tx, {
          email,
          action: forumAction,
          reason: `access.${kind}`,
          at: now,
        })
      : null;
    return { ...next, jobId };
  });

  const expiresAt = iso(state.expiresAt);
  const scheduled =
    kind === 'grant_on_date' || kind === 'revoke_deferred' || kind === 'revoke_on_date'
      ? expiresAt
      : null;
  let discourse: ForumAnswer;
  if (state.jobId !== null) discourse = await forumAnswer(deps, state.jobId);
  else if (deps.config.discourse === null) discourse = DISCOURSE_NOT_CONFIGURED;
  else
    discourse = {
      skipped: true,
      reason: `Access continues until ${expiresAt}; the forum is updated when the expiration runs`,
    };
  return {
    ok: true,
    email,
    mg_status: state.mgStatus,
    expires_at: expiresAt,
    scheduled_expires_at: scheduled,
    discourse,
  };
}

/** Computes the member's next (mg_status, expires_at) for `kind`, or throws the 400/409 of the module doc. */
function nextState(
  kind: AccessActionKind,
  member: MemberState,
  at: Date | null,
  now: Date,
  email: string,
): { mgStatus: MgStatus; expiresAt: Date | null } {
  const nowMs = now.getTime();
  const requireFuture = (d: Date | null, field: string, hint: string): Date => {
    if (d === null) throw badRequest(`${field} is required`);
    if (d.getTime() <= nowMs) {
      throw badRequest(
        `${field} ${d.toISOString()} is not in the future (now ${now.toISOString()}); ${hint}`,
        [{ path: field, message: 'must be in the future' }],
      );
    }
    return d;
  };
  const requireActive = () => {
    if (member.mg_status !== 'active') {
      throw new ApiError(
        409,
        'conflict',
        `Access for ${email} is already cancelled${member.expires_at ? ` (since ${member.expires_at.toISOString()})` : ''}; grant it first`,
      );
    }
  };
  switch (kind) {
    case 'grant':
      return { mgStatus: 'active', expiresAt: null };
    case 'grant_on_date':
      return {
        mgStatus: 'active',
        expiresAt: requireFuture(at, 'until', 'use revoke_now to end access now'),
      };
    case 'revoke_now':
      return {
        mgStatus: 'cancelled',
        expiresAt:
          member.mg_status === 'cancelled' && member.expires_at !== null ? member.expires_at : now,
      };
    case 'revoke_deferred': {
      requireActive();
      if (member.period_end === null) {
        throw badRequest(
          `${email} has no current billing period end (no renewing subscription); use revoke_now or revoke_on_date`,
        );
      }
      if (member.period_end.getTime() <= nowMs) {
        throw badRequest(
          `The current billing period of ${email} already ended at ${member.period_end.toISOString()}; use revoke_now or revoke_on_date`,
        );
      }
      return { mgStatus: 'active', expiresAt: member.period_end };
    }
    case 'revoke_on_date':
      requireActive();
      return {
        mgStatus: 'active',
        expiresAt: requireFuture(at, 'date', 'use revoke_now to revoke immediately'),
      };
  }
}
