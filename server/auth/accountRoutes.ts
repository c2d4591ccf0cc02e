/**
 * Operator management and self-service, behind authentication (docs/api.md "Operators",
 * "Account"). Every change writes its audit row in its own transaction.
 *
 * Owners only:
 * - GET /operators → `{operators: OperatorView[], require_totp}`
 * - POST /operators `{email, name, role}` → 201 `{operator, invite: {url, token, expires_at}}`
 * - PATCH /operators/:id `{role?, disabled?}` → `{operator}`; disabling ends the operator's
 *   sessions and event streams at once; 409 LAST_OWNER for the last active owner
 * - PUT /auth/policy `{require_totp}` → `{require_totp}`
 *
 * Every operator, about themselves:
 * - POST /auth/password `{current, next}` → `{ok, sessions_ended}`; ends their other sessions
 * - GET /auth/sessions → `{sessions: SessionView[]}`; DELETE /auth/sessions/:id → `{ok, ended}`
 * - POST /auth/totp/setup (no body, or `{}`) → `{secret, otpauth_url}`; POST /auth/totp/enable
 *   `{otp}` → `{recovery_codes}`; POST /auth/totp/disable `{password, otp}` → `{ok}`
 *
 * A wrong current password answers 400 `{code:'INCORRECT_PASSWORD'}` (not 401: the caller is
 * signed in, and a 401 would sign the console out); it counts against the sign-in limits.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { recordAudit, requestActor } from '../audit/audit';
import type { AppDeps } from '../context';
import { ApiError, notFound } from '../errors';
import { parseJsonBody } from '../http/body';
import { emailField, plainText } from '../http/fields';
import {
  disableTotp,
  enableTotp,
  endOperatorSession,
  findOperatorById,
  inviteOperator,
  listOperators,
  listOperatorSessions,
  requireTotpPolicy,
  setOperatorPassword,
  setRequireTotpPolicy,
  storePendingTotpSecret,
  claimTotpStep,
  updateOperator,
  type OperatorRow,
} from './operators';
import { verifyPassword } from './password';
import { requireRole, ROLES } from './roles';
import { clientAddress, HASH_WAIT_MS, trustedHops, type AuthEnv, type AuthLimits } from './routes';
import { DEFAULT_SESSION_IDLE_S, revokeOperatorSessions, sessionIdHash } from './session';
import { newTotpSecret, openSecret, otpauthUrl, totpStep } from './totp';
import { notifySessionsEnded } from './sessionEvents';

const inviteBody = z.object({
  email: emailField('email'),
  name: plainText('name').pipe(
    z.string().trim().min(1, 'name is required').max(100, 'name is at most 100 characters'),
  ),
  role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` }),
});

const patchBody = z
  .object({
    role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` }).optional(),
    disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, {
    message: 'Send role and/or disabled',
  });

const policyBody = z.object({
  require_totp: z.boolean({ error: 'require_totp must be true or false' }),
});

const passwordBody = z.object({
  current: z.string({ error: 'current is required' }).max(1024),
  next: z.string({ error: 'next is required' }).max(1024),
});

const setupBody = z.strictObject({});
const otpBody = z.object({ otp: z.string({ error: 'otp is required' }).max(16) });
const disableBody = z.object({
  password: z.string({ error: 'password is required' }).max(1024),
  otp: z.string({ error: 'otp is required' }).max(16),
});

const idParam = (c: Context): number => {
  const raw = c.req.param('id') ?? '';
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw notFound(`No operator with id ${raw}`);
  return Number(raw);
};

const incorrectPassword = () =>
  new ApiError(400, 'bad_request', 'Your current password is not correct.', {
    ok: false,
    code: 'INCORRECT_PASSWORD',
  });
const otpInvalid = () =>
  new ApiError(400, 'bad_request', 'That code is not valid. Enter the current 6-digit code.', {
    ok: false,
    code: 'OTP_INVALID',
  });

/** The public view of an operator row (no hash, no secret). */
function operatorJson(o: OperatorRow) {
  return {
    id: o.id,
    email: o.email,
    name: o.name,
    role: o.role,
    status: o.disabled_at ? 'disabled' : o.password_hash ? 'active' : 'invited',
    totp_enabled: o.totp_enabled_at != null,
  };
}

/** Builds the router of the module doc; `limits` are the sign-in limits shared with /auth/login. */
export function createAccountRouter(deps: AppDeps, limits: AuthLimits): Hono<AuthEnv> {
  const { config } = deps;
  const hops = trustedHops(config);
  const r = new Hono<AuthEnv>();

  /** Checks the caller's password under the sign-in limits; throws 429-style or 400 on failure. */
  const checkOwnPassword = async (c: Context<AuthEnv>, operator: OperatorRow, password: string) => {
    const nowMs = deps.now().getTime();
    const ip = clientAddress(c, hops);
    const got = limits.limiter.reserve(`ip:${ip}`, nowMs);
    if (!got.allowed) {
      throw new ApiError(
        429,
        'rate_limited',
        `Too many attempts. Try again in ${got.retryAfterS} seconds.`,
        {
          ok: false,
          code: 'RATE_LIMITED',
          retry_after_s: got.retryAfterS,
        },
      );
    }
    const slot = await limits.hashSlots.acquire(HASH_WAIT_MS);
    if (!slot) {
      got.reservation.release();
      throw new ApiError(429, 'rate_limited', 'The server is busy. Try again in a moment.', {
        ok: false,
        code: 'RATE_LIMITED',
        retry_after_s: 2,
      });
    }
    try {
      const ok = await verifyPassword(password, operator.password_hash ?? '');
      if (!ok) {
        await recordAudit(
          deps.db,
          requestActor(c, deps),
          {
            action: 'auth.password_check_failed',
            target: operator.email,
            outcome: 'failed',
          },
          deps.now(),
        );
        throw incorrectPassword();
      }
      got.reservation.release();
    } finally {
      slot();
    }
  };

  const me = async (c: Context<AuthEnv>): Promise<OperatorRow> => {
    const operator = await findOperatorById(deps.db, c.get('admin').operatorId);
    if (!operator) throw notFound('Your operator account no longer exists');
    return operator;
  };

  // ---- Owners: operators and the two-factor policy ----
  r.get('/operators', requireRole('owner'), async (c) =>
    c.json({
      operators: await listOperators(deps.db),
      require_totp: await requireTotpPolicy(deps.db),
    }),
  );

  r.post('/operators', requireRole('owner'), async (c) => {
    const body = await parseJsonBody(c, inviteBody, { required: true });
    const now = deps.now();
    const actor = requestActor(c, deps);
    const made = await deps.db.transaction(async (tx) => {
      const result = await inviteOperator(
        tx,
        { ...body, invitedBy: c.get('admin').operatorId },
        now,
      );
      await recordAudit(
        tx,
        actor,
        {
          action: 'operator.create',
          target: result.operator.email,
          detail: { name: body.name, role: body.role, invite_expires_at: result.invite.expires_at },
        },
        now,
      );
      return result;
    });
    // The Origin of this same-origin request is where the console runs (checked by the guard).
    const origin = c.req.header('origin') ?? new URL(c.req.url).origin;
    return c.json(
      {
        operator: operatorJson(made.operator),
        invite: {
          url: `${origin}/admin/invite/${made.invite.token}`,
          token: made.invite.token,
          expires_at: made.invite.expires_at,
        },
      },
      201,
    );
  });

  r.patch('/operators/:id', requireRole('owner'), async (c) => {
    const id = idParam(c);
    const body = await parseJsonBody(c, patchBody, { required: true });
    const now = deps.now();
    const actor = requestActor(c, deps);
    const { after, ended } = await deps.db.transaction(async (tx) => {
      const change = await updateOperator(tx, id, body, now);
      const disabledNow = change.after.disabled_at != null && change.before.disabled_at == null;
      const ended = disabledNow ? await revokeOperatorSessions(tx, id, now) : 0;
      if (disabledNow) await notifySessionsEnded(tx, id);
      const detail: Record<string, unknown> = {};
      if (change.before.role !== change.after.role) {
        detail.role = { before: change.before.role, after: change.after.role };
      }
      if ((change.before.disabled_at == null) !== (change.after.disabled_at == null)) {
        detail.disabled = {
          before: change.before.disabled_at != null,
          after: change.after.disabled_at != null,
        };
      }
      if (ended > 0) detail.sessions_ended = ended;
      await recordAudit(
        tx,
        actor,
        {
          action: disabledNow
            ? 'operator.disable'
            : change.before.disabled_at != null && change.after.disabled_at == null
              ? 'operator.enable'
              : 'operator.update',
          target: change.after.email,
          detail,
        },
        now,
      );
      return { after: change.after, ended };
    });
    return c.json({ operator: operatorJson(after), sessions_ended: ended });
  });

  r.put('/auth/policy', requireRole('owner'), async (c) => {
    const { require_totp } = await parseJsonBody(c, policyBody, { required: true });
    const now = deps.now();
    const actor = requestActor(c, deps);
    await deps.db.transaction(async (tx) => {
      const before = await requireTotpPolicy(tx);
      await setRequireTotpPolicy(tx, require_totp, now);
      await recordAudit(
        tx,
        actor,
        {
          action: 'auth.policy_change',
          target: null,
          detail: { require_totp: { before, after: require_totp } },
        },
        now,
      );
    });
    return c.json({ require_totp });
  });

  // ---- Every operator: their own account ----
  r.post('/auth/password', async (c) => {
    const body = await parseJsonBody(c, passwordBody, { required: true });
    const operator = await me(c);
    await checkOwnPassword(c, operator, body.current);
    const now = deps.now();
    const session = c.get('admin');
    const ended = await deps.db.transaction(async (tx) => {
      await setOperatorPassword(tx, operator, body.next, now);
      const n = await revokeOperatorSessions(tx, operator.id, now, session.sid);
      if (n > 0) await notifySessionsEnded(tx, operator.id);
      await recordAudit(
        tx,
        requestActor(c, deps),
        { action: 'auth.password_change', target: operator.email, detail: { sessions_ended: n } },
        now,
      );
      return n;
    });
    return c.json({ ok: true, sessions_ended: ended });
  });

  r.get('/auth/sessions', async (c) => {
    const session = c.get('admin');
    return c.json({
      sessions: await listOperatorSessions(
        deps.db,
        session.operatorId,
        deps.now(),
        config.sessionIdleS ?? DEFAULT_SESSION_IDLE_S,
        sessionIdHash(session.sid),
      ),
    });
  });

  r.delete('/auth/sessions/:id', async (c) => {
    const session = c.get('admin');
    const viewId = c.req.param('id');
    const now = deps.now();
    const ended = await deps.db.transaction(async (tx) => {
      const done = await endOperatorSession(tx, session.operatorId, viewId, now);
      if (done) {
        await notifySessionsEnded(tx, session.operatorId);
        await recordAudit(
          tx,
          requestActor(c, deps),
          { action: 'auth.session_end', target: session.email, detail: { session: viewId } },
          now,
        );
      }
      return done;
    });
    if (!ended) throw notFound('No open session with that id');
    return c.json({ ok: true, ended: true });
  });

  r.post('/auth/totp/setup', async (c) => {
    // No fields: a body that names any is a malformed request, refused before anything changes.
    await parseJsonBody(c, setupBody);
    const session = c.get('admin');
    const secret = newTotpSecret();
    const now = deps.now();
    // A new pending secret replaces any earlier one: a change to the account, so it is audited
    // (without the secret).
    await deps.db.transaction(async (tx) => {
      await storePendingTotpSecret(tx, config, session.operatorId, secret, now);
      await recordAudit(
        tx,
        requestActor(c, deps),
        { action: 'auth.totp_setup', target: session.email },
        now,
      );
    });
    return c.json({ secret, otpauth_url: otpauthUrl(secret, session.email) });
  });

  r.post('/auth/totp/enable', async (c) => {
    const { otp } = await parseJsonBody(c, otpBody, { required: true });
    const operator = await me(c);
    if (operator.totp_enabled_at != null) {
      throw new ApiError(409, 'conflict', 'Two-factor sign-in is already on.', {
        ok: false,
        code: 'TOTP_ALREADY_ENABLED',
      });
    }
    const base32 = operator.totp_secret ? openSecret(config, operator.totp_secret) : null;
    if (!base32) {
      throw new ApiError(409, 'conflict', 'Start the set-up first: no secret is waiting.', {
        ok: false,
        code: 'TOTP_NOT_SET_UP',
      });
    }
    const now = deps.now();
    const step = totpStep(base32, otp, now.getTime());
    if (step === null) throw otpInvalid();
    const codes = await deps.db.transaction(async (tx) => {
      if (!(await claimTotpStep(tx, operator.id, step))) throw otpInvalid();
      const recovery = await enableTotp(tx, operator.id, now);
      await recordAudit(
        tx,
        requestActor(c, deps),
        { action: 'auth.totp_enable', target: operator.email, detail: { recovery_codes: 10 } },
        now,
      );
      return recovery;
    });
    return c.json({ recovery_codes: codes });
  });

  r.post('/auth/totp/disable', async (c) => {
    const body = await parseJsonBody(c, disableBody, { required: true });
    const operator = await me(c);
    if (operator.totp_enabled_at == null) {
      throw new ApiError(409, 'conflict', 'Two-factor sign-in is not on.', {
        ok: false,
        code: 'TOTP_NOT_ENABLED',
      });
    }
    if (await requireTotpPolicy(deps.db)) {
      throw new ApiError(
        409,
        'conflict',
        'An owner requires two-factor sign-in, so it cannot be turned off.',
        { ok: false, code: 'TOTP_REQUIRED_BY_POLICY' },
      );
    }
    await checkOwnPassword(c, operator, body.password);
    const now = deps.now();
    const base32 = operator.totp_secret ? openSecret(config, operator.totp_secret) : null;
    const step = base32 ? totpStep(base32, body.otp, now.getTime()) : null;
    if (step === null) throw otpInvalid();
    await deps.db.transaction(async (tx) => {
      if (!(await claimTotpStep(tx, operator.id, step))) throw otpInvalid();
      await disableTotp(tx, operator.id, now);
      await recordAudit(
        tx,
        requestActor(c, deps),
        { action: 'auth.totp_disable', target: operator.email },
        now,
      );
    });
    return c.json({ ok: true });
  });

  return r;
}
