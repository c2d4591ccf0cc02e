/**
 * GET /customers/:email/timeline (docs/api.md "Customers"): everything that happened to one
 * customer, newest first, merged from the tables that record it, keyset-paged.
 *
 * Sources (each an entry `id` prefix, its kind and its actor):
 * | id prefix            | kind         | rows                                                                  | actor |
 * |----------------------|--------------|-----------------------------------------------------------------------|-------|
 * | `webhook:`           | webhook      | webhook inbox deliveries of the email (provider, event, outcome)      | 'webhook' |
 * | `subscription:`      | subscription | lifecycle rows new / cancellation / expiration of its subscriptions  | 'system' |
 * | `payment:`           | payment      | lifecycle rows new / renewal that carry money                         | 'system' |
 * | `refund:`            | refund       | lifecycle rows refund (a chargeback when its ISR row says so)         | 'system' |
 * | `audit:`             | by action    | audit rows targeting the email: access.* and maintenance.enforce_now → access, forum.* → forum, webhook.replay → webhook, reconcile.apply → subscription | the operator, else 'system' |
 * | `access-webhook:`    | access       | deliveries whose effects granted or revoked access                    | 'webhook' |
 * | `access-expiration:` | access       | log rows `access.expired` written by the expiration run              | 'expiration' |
 * | `forum:`             | forum        | forum outbox jobs of the email, at their creation, with their outcome | 'system' |
 * | `isr:`               | isr          | ISR events of the email                                               | 'system' |
 * | `log:`               | log          | log rows whose context's `email` is the customer's                    | the context's actor, else 'webhook' or 'expiration' by its message, else 'system' |
 * Lifecycle and ISR rows are the provider's facts as the server recorded them (from a webhook, a
 * reconciliation or an import, which the row does not say), so their actor is 'system'.
 * The sources keep their own retention (webhook inbox 90 days, logs 30, done forum jobs 7), so
 * older entries of those kinds fall away with their rows.
 *
 * Order and paging: newest first by instant (to the microsecond), then source in SOURCE_KEYS order,
 * then row id descending — a total order, so pages never skip nor repeat an entry. Entries of one
 * instant are mostly one change seen from several tables (an operator's revoke writes its audit
 * row, forum job and log row in one transaction); the change itself comes first, its mechanics
 * (forum job, ISR row, log row) after. `next_before` is an opaque cursor
 * (base64url of [instant, source, row id] of the page's last entry). Every source reads at most
 * limit + 1 rows behind the cursor from an index on (customer key, time DESC, id DESC)
 * (migration 017), so a page costs the same on top of a history of 5,000 entries as of 5.
 */
import type { Queryable } from '../db/types';
import { iso } from '../access/params';
import { matchingIsrSql } from './record';

/** The kinds of timeline entry (the `kind` filter's words). */
export const TIMELINE_KINDS = [
  'webhook',
  'subscription',
  'payment',
  'refund',
  'access',
  'forum',
  'isr',
  'log',
] as const;
/** One kind of timeline entry. */
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** Largest and default page size. */
export const TIMELINE_MAX_LIMIT = 200;
export const TIMELINE_DEFAULT_LIMIT = 50;

/** One timeline entry on the wire. */
export interface TimelineItemJson {
  /** Unique across sources: '<source>:<row id>', e.g. 'webhook:123'. */
  id: string;
  /** ISO UTC. */
  at: string;
  kind: TimelineKind;
  /** One line. */
  title: string;
  detail: Record<string, unknown>;
  /** Who acted: an operator's email, 'webhook', 'expiration' or 'system'. */
  actor: string;
}

/** The GET /customers/:email/timeline answer. */
export interface TimelinePageJson {
  items: TimelineItemJson[];
  next_before: string | null;
}

/** A position in the timeline's order: instant (UTC, microseconds, no zone), source, row id. */
export interface TimelineCursor {
  at: string;
  source: SourceKey;
  id: number;
}

/** The sources, in the order entries of one instant are listed (see the module doc). */
const SOURCE_KEYS = [
  'audit',
  'access-webhook',
  'access-expiration',
  'webhook',
  'subscription',
  'payment',
  'refund',
  'forum',
  'isr',
  'log',
] as const;
type SourceKey = (typeof SOURCE_KEYS)[number];
/** A source's place among entries of one instant (lower is listed first). */
const tieRank = (key: SourceKey): number => SOURCE_KEYS.indexOf(key);

/** The instant text of a cursor: what to_char(… 'YYYY-MM-DD"T"HH24:MI:SS.US') writes. */
const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

/** Encodes `c` as the opaque `next_before` text. */
export function encodeCursor(c: TimelineCursor): string {
  return Buffer.from(JSON.stringify([c.at, c.source, c.id]), 'utf8').toString('base64url');
}

/** Decodes a `before` text → the cursor, or null when it is not one encodeCursor wrote. */
export function decodeCursor(text: string): TimelineCursor | null {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 3) return null;
  const [at, source, id] = value as unknown[];
  if (typeof at !== 'string' || !CURSOR_AT.test(at)) return null;
  const ms = Date.parse(`${at.slice(0, 23)}Z`);
  if (!Number.isFinite(ms) || ms < Date.UTC(1970, 0, 1) || ms >= Date.UTC(2101, 0, 1)) return null;
  if (typeof source !== 'string' || !(SOURCE_KEYS as readonly string[]).includes(source)) {
    return null;
  }
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
  return { at, source: source as SourceKey, id };
}

/** What one page asks for. */
export interface TimelineQuery {
  customerId: number;
  /** Lower case. */
  email: string;
  /** The kinds to include; all of them when empty. */
  kinds: readonly TimelineKind[];
  before: TimelineCursor | null;
  /** 1..TIMELINE_MAX_LIMIT. */
  limit: number;
}

/** Numbered parameters of one statement, each bound once and only when a branch uses it. */
class Params {
  readonly values: unknown[] = [];
  private readonly named = new Map<string, string>();
  /** The placeholder ('$n') of the value named `name`, binding `value` on first use. */
  bind(name: string, value: unknown, cast: string): string {
    let p = this.named.get(name);
    if (!p) {
      this.values.push(value);
      p = `$${this.values.length}::${cast}`;
      this.named.set(name, p);
    }
    return p;
  }
}

/** What a source's SQL may use: the bound values and its keyset condition. */
interface SourceContext {
  customerId: string;
  email: string;
  kinds: string;
  limit: string;
  /** The keyset condition (rows after the cursor) on the source's (instant, id) columns. */
  keyset(at: string, id: string): string;
}

/** One source: its key, the kinds it can produce, and its query. */
interface Source {
  key: SourceKey;
  kinds: readonly TimelineKind[];
  /** The SELECT of (src, rid, at, k, d) rows, newest first, at most `ctx.limit` of them. */
  sql(ctx: SourceContext): string;
}

/**
 * The customer's lifecycle rows of `types`, newest first, at most `limit`: one index range per
 * subscription and type (subscription_events_sub_type_time_idx), merged.
 */
function lifecycleRows(ctx: SourceContext, types: string[], extra = 'true'): string {
  return `SELECT e.id, e.type, e.occurred_at, e.amount_cents, COALESCE(e.currency, s.currency) AS currency,
              s.provider, s.provider_id, s.plan, s.cadence, s.status
         FROM subscriptions s
        CROSS JOIN unnest(ARRAY[${types.map((t) => `'${t}'`).join(', ')}]) AS t(type)
        CROSS JOIN LATERAL (
          SELECT e.* FROM subscription_events e
           WHERE e.subscription_id = s.id AND e.type = t.type AND ${extra}
             AND ${ctx.keyset('e.occurred_at', 'e.id')}
           ORDER BY e.occurred_at DESC, e.id DESC LIMIT ${ctx.limit}) e
        WHERE s.customer_id = ${ctx.customerId}
        ORDER BY e.occurred_at DESC, e.id DESC LIMIT ${ctx.limit}`;
}

/** The lifecycle row columns of lifecycleRows' result `x`, for matchingIsrSql. */
const X_COLUMNS = { type: 'x.type', occurredAt: 'x.occurred_at', provider: 'x.provider' };

const AUDIT_KIND = `CASE WHEN a.action LIKE 'access.%' OR a.action = 'maintenance.enforce_now' THEN 'access'
                        WHEN a.action LIKE 'forum.%' THEN 'forum'
                        WHEN a.action = 'webhook.replay' THEN 'webhook'
                        ELSE 'subscription' END`;

const SOURCES: Source[] = [
  {
    key: 'webhook',
    kinds: ['webhook'],
    sql: (ctx) => `SELECT 'webhook' AS src, w.id AS rid, w.received_at AS at, NULL::text AS k,
        jsonb_build_object('delivery_id', w.id, 'provider', w.provider, 'event', w.event,
          'outcome', w.outcome, 'http_status', w.http_status, 'error', w.error,
          'subscription_id', w.subscription_id, 'effects', w.effects,
          'replayed_at', w.replayed_at, 'replay_outcome', w.replay_outcome) AS d
      FROM webhook_deliveries w
     WHERE w.email = ${ctx.email} AND ${ctx.keyset('w.received_at', 'w.id')}
     ORDER BY w.received_at DESC, w.id DESC LIMIT ${ctx.limit}`,
  },
  {
    key: 'subscription',
    kinds: ['subscription'],
    sql: (ctx) => `SELECT 'subscription' AS src, x.id AS rid, x.occurred_at AS at, NULL::text AS k,
        jsonb_build_object('type', x.type, 'provider', x.provider, 'subscription_id', x.provider_id,
          'plan', x.plan, 'cadence', x.cadence, 'current_status', x.status) AS d
      FROM (${lifecycleRows(ctx, ['new', 'cancellation', 'expiration'])}) x`,
  },
  {
    key: 'payment',
    kinds: ['payment'],
    sql: (ctx) => `SELECT 'payment' AS src, x.id AS rid, x.occurred_at AS at, NULL::text AS k,
        jsonb_build_object('type', x.type, 'provider', x.provider, 'subscription_id', x.provider_id,
          'amount_cents', x.amount_cents, 'currency', x.currency, 'reference', i.reference) AS d
      FROM (${lifecycleRows(ctx, ['new', 'renewal'], 'e.amount_cents IS NOT NULL AND e.amount_cents <> 0')}) x
      ${matchingIsrSql(ctx.email, X_COLUMNS)}`,
  },
  {
    key: 'refund',
    kinds: ['refund'],
    sql: (ctx) => `SELECT 'refund' AS src, x.id AS rid, x.occurred_at AS at, NULL::text AS k,
        jsonb_build_object('type', COALESCE(i.kind, 'refund'), 'provider', x.provider,
          'subscription_id', x.provider_id, 'amount_cents', abs(x.amount_cents),
          'currency', x.currency, 'reference', i.reference) AS d
      FROM (${lifecycleRows(ctx, ['refund'])}) x
      ${matchingIsrSql(ctx.email, X_COLUMNS)}`,
  },
  {
    key: 'audit',
    kinds: ['access', 'forum', 'webhook', 'subscription'],
    sql: (ctx) => `SELECT 'audit' AS src, a.id AS rid, a.at, ${AUDIT_KIND} AS k,
        jsonb_build_object('audit_id', a.id, 'action', a.action, 'outcome', a.outcome,
          'operator', a.operator_email, 'detail', a.detail) AS d
      FROM audit_log a
     WHERE lower(a.target) = ${ctx.email}
       AND (a.action LIKE 'access.%' OR a.action LIKE 'forum.%'
            OR a.action IN ('maintenance.enforce_now', 'webhook.replay', 'reconcile.apply'))
       AND ${AUDIT_KIND} = ANY (${ctx.kinds})
       AND ${ctx.keyset('a.at', 'a.id')}
     ORDER BY a.at DESC, a.id DESC LIMIT ${ctx.limit}`,
  },
  {
    key: 'access-webhook',
    kinds: ['access'],
    sql: (
      ctx,
    ) => `SELECT 'access-webhook' AS src, w.id AS rid, w.received_at AS at, NULL::text AS k,
        jsonb_build_object('delivery_id', w.id, 'provider', w.provider, 'event', w.event,
          'change', CASE WHEN w.effects ? 'access.grant' THEN 'grant' ELSE 'revoke' END,
          'subscription_id', w.subscription_id) AS d
      FROM webhook_deliveries w
     WHERE w.email = ${ctx.email} AND w.effects ?| ARRAY['access.grant', 'access.revoke']
       AND ${ctx.keyset('w.received_at', 'w.id')}
     ORDER BY w.received_at DESC, w.id DESC LIMIT ${ctx.limit}`,
  },
  {
    key: 'access-expiration',
    kinds: ['access'],
    sql: (ctx) => `SELECT 'access-expiration' AS src, l.id AS rid, l.ts AS at, NULL::text AS k,
        jsonb_build_object('log_id', l.id, 'mg_status', l.context ->> 'mg_status',
          'expires_at', l.context ->> 'expires_at') AS d
      FROM logs l
     WHERE (l.context ->> 'email') = ${ctx.email} AND l.msg = 'access.expired'
       AND (l.context ->> 'action') = 'expire' AND ${ctx.keyset('l.ts', 'l.id')}
     ORDER BY l.ts DESC, l.id DESC LIMIT ${ctx.limit}`,
  },
  {
    key: 'forum',
    kinds: ['forum'],
    sql: (ctx) => `SELECT 'forum' AS src, f.id AS rid, f.created_at AS at, NULL::text AS k,
        jsonb_build_object('job_id', f.id, 'action', f.action, 'reason', f.reason, 'state', f.state,
          'attempts', f.attempts, 'last_status', f.last_status, 'last_error', f.last_error,
          'outcome', f.outcome, 'finished_at', f.finished_at,
          'next_attempt_at', CASE WHEN f.state = 'pending' THEN f.next_attempt_at END) AS d
      FROM forum_outbox f
     WHERE f.email = ${ctx.email} AND ${ctx.keyset('f.created_at', 'f.id')}
     ORDER BY f.created_at DESC, f.id DESC LIMIT ${ctx.limit}`,
  },
  {
    key: 'isr',
    kinds: ['isr'],
    sql: (ctx) => `SELECT 'isr' AS src, i.id AS rid, i.created_at AS at, NULL::text AS k,
        jsonb_build_object('isr_id', i.id, 'source', i.source, 'kind', i.kind, 'order_id', i.order_id,
          'receipt', i.receipt, 'product_id', i.product_id, 'amount_cents', i.amount_cents,
          'currency', i.currency, 'affiliate', i.affiliate, 'subid', i.subid,
          'campaign', i.campaign, 'referrer', i.referrer) AS d
      FROM isr_events i
     WHERE i.customer_email = ${ctx.email} AND ${ctx.keyset('i.created_at', 'i.id')}
     ORDER BY i.created_at DESC, i.id DESC LIMIT ${ctx.limit}`,
  },
  {
    key: 'log',
    kinds: ['log'],
    sql: (ctx) => `SELECT 'log' AS src, l.id AS rid, l.ts AS at, NULL::text AS k,
        jsonb_build_object('log_id', l.id, 'level', l.level, 'msg', l.msg, 'context', l.context) AS d
      FROM logs l
     WHERE (l.context ->> 'email') = ${ctx.email} AND ${ctx.keyset('l.ts', 'l.id')}
     ORDER BY l.ts DESC, l.id DESC LIMIT ${ctx.limit}`,
  },
];

interface MergedRow {
  src: SourceKey;
  rid: number;
  at: Date;
  at_key: string;
  k: TimelineKind | null;
  d: Record<string, unknown>;
}

/** The order of the timeline: instant descending, then source (tieRank), then row id descending. */
function compareDesc(a: MergedRow, b: MergedRow): number {
  if (a.at_key !== b.at_key) return a.at_key < b.at_key ? 1 : -1;
  if (a.src !== b.src) return tieRank(a.src) - tieRank(b.src);
  return b.rid - a.rid;
}

/**
 * One page of the customer's timeline (see the module doc) → its entries, newest first, and the
 * cursor of the next page (null when this page reaches the end).
 */
export async function customerTimeline(db: Queryable, q: TimelineQuery): Promise<TimelinePageJson> {
  const kinds = q.kinds.length > 0 ? q.kinds : TIMELINE_KINDS;
  const params = new Params();
  const before = q.before;
  const branches = SOURCES.filter((s) => s.kinds.some((k) => kinds.includes(k))).map((s) => {
    const ctx: SourceContext = {
      get customerId() {
        return params.bind('customerId', q.customerId, 'bigint');
      },
      get email() {
        return params.bind('email', q.email, 'text');
      },
      get kinds() {
        return params.bind('kinds', [...kinds], 'text[]');
      },
      get limit() {
        return params.bind('limit', q.limit + 1, 'int');
      },
      // Rows after the cursor in the timeline's order; the source part is decided here, so each
      // branch keeps a plain range condition its index serves.
      keyset(at, id) {
        if (!before) return 'true';
        const cursorAt = params.bind('beforeAt', `${before.at}Z`, 'timestamptz');
        if (tieRank(s.key) > tieRank(before.source)) return `${at} <= ${cursorAt}`;
        if (tieRank(s.key) < tieRank(before.source)) return `${at} < ${cursorAt}`;
        return `(${at}, ${id}) < (${cursorAt}, ${params.bind('beforeId', before.id, 'bigint')})`;
      },
    };
    return `(SELECT ${tieRank(s.key)} AS tie, b.* FROM (${s.sql(ctx)}) b)`;
  });
  // The merge runs in the database too, so only the page (and one more row) comes back, in the
  // order compareDesc and the keyset condition follow.
  const limit = params.bind('limit', q.limit + 1, 'int');
  const r = await db.query<MergedRow>(
    `SELECT u.src, u.rid, u.at, u.k, u.d,
            to_char(u.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS at_key
       FROM (${branches.join('\nUNION ALL\n')}) u
      ORDER BY u.at DESC, u.tie, u.rid DESC
      LIMIT ${limit}`,
    params.values,
  );
  const rows = r.rows.map((row) => ({ ...row, rid: Number(row.rid) })).sort(compareDesc);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toItem),
    next_before:
      rows.length > q.limit && last
        ? encodeCursor({ at: last.at_key, source: last.src, id: last.rid })
        : null,
  };
}

const PROVIDER_LABEL: Record<string, string> = {
  lemonsqueezy: 'LemonSqueezy',
  clickbank: 'ClickBank',
};
const providerLabel = (p: unknown): string =>
  typeof p === 'string' ? (PROVIDER_LABEL[p] ?? p) : 'provider';
const text = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
const money = (cents: unknown, currency: unknown): string =>
  typeof cents === 'number' ? `${(cents / 100).toFixed(2)} ${text(currency) ?? ''}`.trim() : '';
/** One line of at most 200 characters. */
const oneLine = (t: string): string => {
  const flat = t.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
};
/** 'YYYY-MM-DD HH:MM UTC' of an ISO text, or the text itself. */
const when = (v: unknown): string => {
  const s = iso(typeof v === 'string' ? v : null);
  return s ? `${s.slice(0, 10)} ${s.slice(11, 16)} UTC` : 'an unknown date';
};
const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** What an access action or enforce-now did, in words, from its audit row. */
function auditTitle(action: string, d: Record<string, unknown>): string {
  const after = obj(obj(d.detail).after);
  switch (action) {
    case 'access.grant':
      return 'Access granted';
    case 'access.grant_on_date':
      return `Access granted until ${when(after.expires_at)}`;
    case 'access.revoke_now':
      return 'Access revoked';
    case 'access.revoke_deferred':
      return `Access revocation scheduled at renewal (${when(after.expires_at)})`;
    case 'access.revoke_on_date':
      return `Access revocation scheduled for ${when(after.expires_at)}`;
    case 'maintenance.enforce_now':
      return obj(d.detail).changed === true
        ? 'Enforce now: access expired'
        : 'Enforce now: forum updated to the current access';
    case 'forum.retry':
      return `Forum job #${text(obj(d.detail).job_id) ?? '?'} retried`;
    case 'webhook.replay':
      return `Webhook delivery #${text(obj(d.detail).delivery_id) ?? '?'} replayed`;
    case 'reconcile.apply':
      return 'Reconciled with the provider';
    default:
      return action;
  }
}

/** The forum job's outcome in words. */
function forumTitle(d: Record<string, unknown>): string {
  const action = text(d.action) ?? 'sync';
  const outcome = obj(d.outcome);
  const error = text(d.last_error);
  switch (d.state) {
    case 'done':
      if (outcome.skipped === true)
        return `Forum ${action}: skipped (${text(outcome.reason) ?? ''})`;
      return `Forum ${action}: sent${outcome.invited === true ? ' (invitation)' : ''}`;
    case 'failed':
      return `Forum ${action}: failed after ${text(d.attempts) ?? '?'} attempts${error ? ` — ${error}` : ''}`;
    default:
      return Number(d.attempts) > 0
        ? `Forum ${action}: retrying (attempt ${text(d.attempts)} failed${error ? `: ${error}` : ''})`
        : `Forum ${action}: pending`;
  }
}

const LIFECYCLE: Record<string, string> = {
  new: 'started',
  cancellation: 'cancelled',
  expiration: 'expired',
};

/** A merged row → its wire entry (title and actor by source). */
function toItem(row: MergedRow): TimelineItemJson {
  const d = row.d;
  const base = { id: `${row.src}:${row.rid}`, at: iso(row.at) ?? '' };
  const sub = `${providerLabel(d.provider)} ${text(d.subscription_id) ?? ''}`.trim();
  switch (row.src) {
    case 'webhook':
      return {
        ...base,
        kind: 'webhook',
        title: oneLine(
          `${providerLabel(d.provider)} ${text(d.event) ?? 'delivery'}: ${text(d.outcome) ?? ''}`,
        ),
        detail: d,
        actor: 'webhook',
      };
    case 'subscription':
      return {
        ...base,
        kind: 'subscription',
        title: oneLine(
          `Subscription ${LIFECYCLE[String(d.type)] ?? String(d.type)}: ${sub} (${text(d.plan) ?? ''}, ${text(d.cadence) ?? ''})`,
        ),
        detail: d,
        actor: 'system',
      };
    case 'payment':
      return {
        ...base,
        kind: 'payment',
        title: oneLine(
          `${d.type === 'renewal' ? 'Renewal' : 'Payment'} ${money(d.amount_cents, d.currency)} · ${sub}`,
        ),
        detail: d,
        actor: 'system',
      };
    case 'refund':
      return {
        ...base,
        kind: 'refund',
        title: oneLine(
          `${d.type === 'chargeback' ? 'Chargeback' : 'Refund'} ${money(d.amount_cents, d.currency)} · ${sub}`,
        ),
        detail: d,
        actor: 'system',
      };
    case 'audit': {
      const action = text(d.action) ?? '';
      const outcome = text(d.outcome);
      return {
        ...base,
        kind: row.k ?? 'access',
        title: oneLine(
          `${auditTitle(action, d)}${outcome && outcome !== 'ok' ? ` (${outcome})` : ''}`,
        ),
        detail: d,
        actor: text(d.operator) ?? 'system',
      };
    }
    case 'access-webhook':
      return {
        ...base,
        kind: 'access',
        title: oneLine(
          `Access ${d.change === 'grant' ? 'granted' : 'revoked'} by ${providerLabel(d.provider)} ${text(d.event) ?? 'webhook'}`,
        ),
        detail: d,
        actor: 'webhook',
      };
    case 'access-expiration':
      return {
        ...base,
        kind: 'access',
        title: oneLine(`Access expired (scheduled end ${when(d.expires_at)})`),
        detail: d,
        actor: 'expiration',
      };
    case 'forum':
      return { ...base, kind: 'forum', title: oneLine(forumTitle(d)), detail: d, actor: 'system' };
    case 'isr':
      return {
        ...base,
        kind: 'isr',
        title: oneLine(
          `ISR ${text(d.kind) ?? 'event'} ${money(d.amount_cents, d.currency)} · ${text(d.source) ?? ''} ${text(d.receipt) ?? text(d.order_id) ?? ''}${text(d.affiliate) ? ` · affiliate ${text(d.affiliate)}` : ''}`,
        ),
        detail: d,
        actor: 'system',
      };
    case 'log': {
      const context = obj(d.context);
      const msg = text(d.msg) ?? '';
      return {
        ...base,
        kind: 'log',
        title: oneLine(`${(text(d.level) ?? 'info').toUpperCase()} ${msg}`),
        detail: d,
        actor: logActor(msg, context),
      };
    }
  }
}

/** Who a log row says acted: the operator it names, else what its message implies, else the system. */
function logActor(msg: string, context: Record<string, unknown>): string {
  const named = text(context.actor);
  if (named) return named;
  if (msg.startsWith('webhook.')) return 'webhook';
  if (msg === 'access.expired' && context.action === 'expire') return 'expiration';
  return 'system';
}
