/**
 * A small Discourse (forum) client for the access actions (specification §2 Users actions, §3
 * "Action response" discourse object, §8 action alerts). It speaks the documented admin API:
 *
 * - find a forum account by email: `GET /admin/users/list/active.json?email=…&show_emails=true`
 *   (an array of users; Discourse matches the email exactly);
 * - grant: `PUT /groups/{id}/members.json` `{usernames}` when the account exists, otherwise
 *   `POST /invites.json` `{email, group_ids}` (the invitee joins the group on sign-up);
 * - revoke: first the address's pending invites are withdrawn — `GET /u/{api_username}/invited.json
 *   ?filter=pending&search={email}` lists the invites the API user sent (`{invites:[{id, email}]}`,
 *   a substring search, so only exact email matches are kept) and `DELETE /invites.json` `{id}`
 *   deletes each (Discourse lets a user delete the invites it sent) — so the customer cannot join
 *   through an old invite; then `DELETE /groups/{id}/members.json` `{usernames}` when an account
 *   exists. Every step is idempotent, so the outbox may run a revoke again after a failure.
 *
 * A grant is idempotent: Discourse's 422 "already a member of this group" (add_members) and its 422
 * for an address that already has an invite count as success.
 *
 * Every call sends `Api-Key` and `Api-Username` and is cut off after `config.timeoutMs` ms.
 * Nothing here throws: every failure becomes `{ok:false, status, error}` so that access changes,
 * already committed, are reported rather than rolled back.
 */
import type { DiscourseConfig } from '../context';

/** The `discourse` object of an action answer (docs/api.md). */
export type DiscourseOutcome =
  | { ok: true; status: number; invites_removed?: number }
  | { ok: true; invited: true; groupId: number; status: number }
  | {
      ok: false;
      status: number | null;
      error: string;
      payload?: { errors: string[] };
      /** A 429's `extras.wait_seconds`: how long Discourse asks us to wait before the next call. */
      wait_seconds?: number;
    }
  | { skipped: true; reason: string };

/** The outcome when `config.discourse` is null. */
export const DISCOURSE_NOT_CONFIGURED: DiscourseOutcome = {
  skipped: true,
  reason: 'Discourse not configured',
};

interface CallOk {
  ok: true;
  status: number;
  body: unknown;
}
interface CallFailed {
  ok: false;
  outcome: Extract<DiscourseOutcome, { ok: false }>;
}

/** Client bound to one Discourse configuration; `fetchImpl` defaults to the global fetch. */
export class DiscourseClient {
  constructor(
    private readonly config: DiscourseConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /**
   * Gives `email` forum access (§2 grant): adds the existing account to the configured group
   * → {ok:true, status}, or invites the address into the group → {ok:true, invited:true, groupId}.
   * Failures → {ok:false, status|null, error, payload?}.
   */
  async grant(email: string): Promise<DiscourseOutcome> {
    const user = await this.findUsername(email);
    if (!user.ok) return user.outcome;
    const groupId = this.config.groupId;
    if (user.username === null) {
      const invite = await this.call('POST', '/invites.json', {
        email,
        group_ids: String(groupId),
      });
      if (!invite.ok && !isAlready(invite, INVITE_EXISTS)) return invite.outcome;
      const status = invite.ok ? invite.status : (invite.outcome.status ?? 422);
      return { ok: true, invited: true, groupId, status };
    }
    const added = await this.call('PUT', `/groups/${groupId}/members.json`, {
      usernames: user.username,
    });
    if (!added.ok && !isAlready(added, ALREADY_MEMBER)) return added.outcome;
    return { ok: true, status: added.ok ? added.status : (added.outcome.status ?? 422) };
  }

  /**
   * Takes forum access away from `email` (§2 revoke): withdraws the address's pending
   * invites, then removes the account from the configured group → {ok:true, status,
   * invites_removed?} (invites_removed present when at least one invite was deleted); no account
   * and no invite → {skipped:true, reason:'No forum account'}; failures → {ok:false, …}.
   */
  async revoke(email: string): Promise<DiscourseOutcome> {
    const user = await this.findUsername(email);
    if (!user.ok) return user.outcome;
    const invites = await this.removePendingInvites(email);
    if (!invites.ok) return invites.outcome;
    const removedInvites = invites.removed > 0 ? { invites_removed: invites.removed } : {};
    if (user.username === null) {
      return invites.removed > 0
        ? { ok: true, status: invites.status, ...removedInvites }
        : { skipped: true, reason: 'No forum account' };
    }
    const removed = await this.call('DELETE', `/groups/${this.config.groupId}/members.json`, {
      usernames: user.username,
    });
    if (!removed.ok) return removed.outcome;
    return { ok: true, status: removed.status, ...removedInvites };
  }

  /**
   * Deletes the pending invites the API user sent to `email` → {ok:true, removed (count), status
   * of the last call} or a failure outcome (its error says which step failed).
   */
  async removePendingInvites(
    email: string,
  ): Promise<{ ok: true; removed: number; status: number } | CallFailed> {
    const qs = new URLSearchParams({ filter: 'pending', search: email });
    const listed = await this.call(
      'GET',
      `/u/${encodeURIComponent(this.config.apiUsername)}/invited.json?${qs.toString()}`,
    );
    if (!listed.ok) return prefixed(listed, 'Listing pending invites failed');
    const list = (listed.body as { invites?: unknown } | null)?.invites;
    if (!Array.isArray(list)) {
      return {
        ok: false,
        outcome: {
          ok: false,
          status: listed.status,
          error: 'Discourse invite list answered an unexpected shape',
        },
      };
    }
    const ids = list
      .filter(
        (i): i is { id: number; email: string } =>
          typeof i === 'object' &&
          i !== null &&
          typeof (i as { id?: unknown }).id === 'number' &&
          typeof (i as { email?: unknown }).email === 'string' &&
          (i as { email: string }).email.toLowerCase() === email.toLowerCase(),
      )
      .map((i) => i.id);
    let status = listed.status;
    for (const id of ids) {
      const deleted = await this.call('DELETE', '/invites.json', { id });
      if (!deleted.ok) return prefixed(deleted, `Deleting pending invite ${id} failed`);
      status = deleted.status;
    }
    return { ok: true, removed: ids.length, status };
  }

  /** Looks the forum account up by email → {ok:true, username|null} or a failure outcome. */
  private async findUsername(
    email: string,
  ): Promise<{ ok: true; username: string | null } | CallFailed> {
    const qs = new URLSearchParams({ email, show_emails: 'true' });
    const found = await this.call('GET', `/admin/users/list/active.json?${qs.toString()}`);
    if (!found.ok) return found;
    if (!Array.isArray(found.body)) {
      return {
        ok: false,
        outcome: {
          ok: false,
          status: found.status,
          error: 'Discourse user lookup answered an unexpected shape',
        },
      };
    }
    const users = found.body.filter(
      (u): u is { username: string; email?: unknown } =>
        typeof u === 'object' &&
        u !== null &&
        typeof (u as { username?: unknown }).username === 'string',
    );
    // Discourse filters by exact email already; when emails are shown, double-check.
    const match =
      users.find(
        (u) => typeof u.email === 'string' && u.email.toLowerCase() === email.toLowerCase(),
      ) ?? users.find((u) => typeof u.email !== 'string');
    return { ok: true, username: match ? match.username : null };
  }

  /** One HTTP call with the API headers and the time-out → parsed JSON body, or a failure outcome. */
  private async call(
    method: string,
    pathAndQuery: string,
    body?: unknown,
  ): Promise<CallOk | CallFailed> {
    const timeoutMs = this.config.timeoutMs;
    const headers: Record<string, string> = {
      'Api-Key': this.config.apiKey,
      'Api-Username': this.config.apiUsername,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await this.fetchImpl(`${this.config.baseUrl.replace(/\/+$/, '')}${pathAndQuery}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      return {
        ok: false,
        outcome: { ok: false, status: null, error: describeFetchError(err, timeoutMs) },
      };
    }
    let parsed: unknown = null;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    if (res.ok) return { ok: true, status: res.status, body: parsed };
    return { ok: false, outcome: describeHttpError(res.status, parsed, text) };
  }
}

/**
 * groups_controller#add_members answers 422 `{"errors":["<user> is already a member of this
 * group."]}` (or "…are already members…" for several) when there is nothing to add.
 */
const ALREADY_MEMBER = /already (a )?members? of this group/i;
/**
 * POST /invites.json answers 422 when the address already has an invite (or an account that the
 * lookup did not show): the invitee can already join, so the grant has nothing left to do.
 */
const INVITE_EXISTS = /already|exists/i;

/** A 422 whose Discourse error says the wanted state already holds: a grant done before. */
function isAlready(failed: CallFailed, pattern: RegExp): boolean {
  const o = failed.outcome;
  return o.status === 422 && (o.payload?.errors ?? [o.error]).some((e) => pattern.test(e));
}

/** Turns a thrown fetch error into a message: time-outs name the limit in ms, network errors their cause. */
function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return `Discourse timed out after ${timeoutMs} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  const message = e?.message ?? String(err);
  return cause ? `${message} (${cause})` : message;
}

/** Maps a Discourse 4xx/5xx answer (`{errors:[…], error_type, extras?}`) to a failure outcome. */
function describeHttpError(
  status: number,
  parsed: unknown,
  text: string,
): Extract<DiscourseOutcome, { ok: false }> {
  const obj = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
    errors?: unknown;
    error_type?: unknown;
    extras?: { wait_seconds?: unknown };
  };
  const errors = Array.isArray(obj.errors) ? obj.errors.map((x) => String(x)) : [];
  let error =
    errors.length > 0
      ? errors.join('; ')
      : typeof obj.error_type === 'string'
        ? obj.error_type
        : text.trim() !== '' && text.length <= 200
          ? text.trim()
          : `HTTP ${status}`;
  const wait = obj.extras?.wait_seconds;
  const waitSeconds =
    status === 429 && (typeof wait === 'number' || typeof wait === 'string') ? Number(wait) : NaN;
  const rateLimit =
    Number.isFinite(waitSeconds) && waitSeconds >= 0 ? { wait_seconds: waitSeconds } : {};
  if (status === 429 && (typeof wait === 'number' || typeof wait === 'string')) {
    error = `${error} (rate limited; retry after ${wait} s)`;
  }
  return errors.length > 0
    ? { ok: false, status, error, payload: { errors }, ...rateLimit }
    : { ok: false, status, error, ...rateLimit };
}

/** A failed call whose error names the step, e.g. 'Listing pending invites failed: HTTP 500'. */
function prefixed(failed: CallFailed, step: string): CallFailed {
  return { ok: false, outcome: { ...failed.outcome, error: `${step}: ${failed.outcome.error}` } };
}

/**
 * Runs the forum side of an access change: grant or revoke for `email` when Discourse is configured
 * → its outcome; {skipped:true, reason:'Discourse not configured'} when `config` is null.
 */
export async function syncForumAccess(
  config: DiscourseConfig | null,
  kind: 'grant' | 'revoke',
  email: string,
  fetchImpl: typeof fetch = fetch,
): Promise<DiscourseOutcome> {
  if (config === null) return DISCOURSE_NOT_CONFIGURED;
  const client = new DiscourseClient(config, fetchImpl);
  return kind === 'grant' ? client.grant(email) : client.revoke(email);
}
