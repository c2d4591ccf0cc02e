/**
 * The webhook inbox (docs/api.md "Webhook deliveries"):
 * - GET /webhook-deliveries?provider=&outcome=&event=&email=&from=&to=&page=&pageSize= → one page,
 *   newest first (received_at desc, then id desc): `{rows, total, page, pageSize, totalPages,
 *   totalCapped}`. Filters are exact (provider and outcome from their vocabularies; event in any
 *   letter case; email the whole address, case-insensitive; from/to UTC dates or date-times, a
 *   date-only `to` includes its day). The total is counted up to WEBHOOK_COUNT_CAP matches, so a
 *   page is never deeper than that: older deliveries are reached by narrowing the time range.
 * - GET /webhook-deliveries/:id → the row plus `headers` and `body` (the verified payload as JSON,
 *   null when only its size was kept).
 * - POST /webhook-deliveries/:id/replay (admin and up) → `{outcome, effects, error}`: re-applies a
 *   stored verified delivery through the endpoint's own code path, in one transaction with its
 *   audit row ('webhook.replay') and the row's replayed_at/replay_outcome. The dedup key makes it
 *   idempotent: a delivery that was applied replays as `duplicate`.
 *
 * Migration 016 indexes every filter in list order, so a page is the head of one index range.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { readDbOf, type AppDeps } from '../context';
import type { Queryable } from '../db/types';
import { ApiError, badRequest, notFound } from '../errors';
import { validate } from '../http/body';
import { enumParam, pageParams, textParam, utcDateParam } from '../http/fields';
import { iso, toDateRange } from '../access/params';
import { requireRole } from '../auth/roles';
import { recordAudit, requestActor, type AuditOutcome } from '../audit/audit';
import { PROVIDERS } from '../vocabulary';
import { applyClickbankPlain } from '../webhooks/clickbank';
import { applyLemonSqueezyBody } from '../webhooks/lemonsqueezy';
import {
  DELIVERY_OUTCOMES,
  type DeliveryFacts,
  type DeliveryOutcome,
  type DeliveryResult,
} from '../webhooks/inbox';

/** Largest page size accepted (the list screens' 50/100/200); larger is a 400. */
export const WEBHOOK_MAX_PAGE_SIZE = 200;
/** Default page size. */
export const WEBHOOK_DEFAULT_PAGE_SIZE = 50;
/** A list's total is counted up to this many matches (then totalCapped is true). */
export const WEBHOOK_COUNT_CAP = 1000;

/** One inbox row as listed. */
export interface WebhookDeliveryRow {
  id: number;
  /** ISO 8601 UTC. */
  received_at: string | null;
  provider: string;
  event: string | null;
  outcome: DeliveryOutcome;
  http_status: number;
  /** The error of a refused or failed delivery, or the reason an ignored one was not acted on. */
  error: string | null;
  email: string | null;
  subscription_id: string | null;
  /** Bytes received. */
  body_size: number;
  /** Whether the verified body is kept (a replay needs it). */
  has_body: boolean;
  /** What the delivery changed, e.g. ['subscription.created', 'access.grant']. */
  effects: string[];
  replayed_at: string | null;
  replay_outcome: DeliveryOutcome | null;
}

/** The GET /webhook-deliveries answer. */
export interface WebhookDeliveriesPage {
  rows: WebhookDeliveryRow[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  /** True when more than WEBHOOK_COUNT_CAP rows match: total is then that cap. */
  totalCapped: boolean;
}

const querySchema = z.object({
  ...pageParams(WEBHOOK_MAX_PAGE_SIZE, WEBHOOK_DEFAULT_PAGE_SIZE),
  provider: enumParam('provider', PROVIDERS),
  outcome: enumParam('outcome', DELIVERY_OUTCOMES),
  event: textParam('event', 60),
  email: textParam('email', 254),
  from: utcDateParam('from'),
  to: utcDateParam('to'),
});
/** Validated GET /webhook-deliveries parameters. */
export type WebhookDeliveriesQuery = z.output<typeof querySchema>;

/** Reads and validates the query string; throws 400 naming the bad parameter. */
export function parseWebhookDeliveriesQuery(
  q: Record<string, string | undefined>,
): WebhookDeliveriesQuery {
  const parsed = validate(querySchema, q);
  const range = toDateRange(parsed.from, parsed.to);
  if (range.from && range.toExclusive && range.from >= range.toExclusive) {
    throw badRequest(`from (${parsed.from?.text}) is after to (${parsed.to?.text})`);
  }
  return parsed;
}

const LIST_COLUMNS = `id, received_at, provider, event, outcome, http_status, error, email,
  subscription_id, body_size, body IS NOT NULL AS has_body, effects, replayed_at, replay_outcome`;

interface StoredRow {
  id: number | string;
  received_at: Date;
  provider: string;
  event: string | null;
  outcome: DeliveryOutcome;
  http_status: number;
  error: string | null;
  email: string | null;
  subscription_id: string | null;
  body_size: number;
  has_body: boolean;
  effects: string[] | null;
  replayed_at: Date | null;
  replay_outcome: DeliveryOutcome | null;
}

function toRow(r: StoredRow): WebhookDeliveryRow {
  return {
    id: Number(r.id),
    received_at: iso(r.received_at),
    provider: r.provider,
    event: r.event,
    outcome: r.outcome,
    http_status: r.http_status,
    error: r.error,
    email: r.email,
    subscription_id: r.subscription_id,
    body_size: r.body_size,
    has_body: r.has_body,
    effects: Array.isArray(r.effects) ? r.effects : [],
    replayed_at: r.replayed_at ? iso(r.replayed_at) : null,
    replay_outcome: r.replay_outcome,
  };
}

/** The two statements of one list request: the page, and the capped count of matches. */
export function webhookListSql(
  query: WebhookDeliveriesQuery,
): [{ text: string; params: unknown[] }, { text: string; params: unknown[] }] {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (query.provider) add((p) => `provider = ${p}`, query.provider);
  if (query.outcome) add((p) => `outcome = ${p}`, query.outcome);
  if (query.event) {
    // Provider event names are lower case (LemonSqueezy) or upper case (ClickBank).
    add(
      (p) => `event = ANY(${p}::text[])`,
      [...new Set([query.event, query.event.toLowerCase(), query.event.toUpperCase()])],
    );
  }
  if (query.email) add((p) => `email = ${p}`, query.email.toLowerCase());
  const range = toDateRange(query.from, query.to);
  if (range.from) add((p) => `received_at >= ${p}`, range.from);
  if (range.toExclusive) add((p) => `received_at < ${p}`, range.toExclusive);
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const offset = (query.page - 1) * query.pageSize;
  return [
    {
      text: `SELECT ${LIST_COLUMNS} FROM webhook_deliveries ${whereSql}
        ORDER BY received_at DESC, id DESC LIMIT ${query.pageSize} OFFSET ${offset}`,
      params,
    },
    {
      text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries ${whereSql}
         LIMIT ${WEBHOOK_COUNT_CAP + 1}) AS matches`,
      params,
    },
  ];
}

/** Runs one page of the inbox list (newest first) with its capped total. */
export async function queryWebhookDeliveries(
  db: Queryable,
  query: WebhookDeliveriesQuery,
): Promise<WebhookDeliveriesPage> {
  const [pageSql, countSql] = webhookListSql(query);
  const page = await db.query<StoredRow>(pageSql.text, pageSql.params);
  const offset = (query.page - 1) * query.pageSize;
  // A page that is not full and not past the end is the last: it tells the total without the
  // count (a rare filter, one customer, the end of a time range).
  const lastPage = page.rows.length < query.pageSize && (page.rows.length > 0 || offset === 0);
  const matched = lastPage
    ? offset + page.rows.length
    : ((await db.query<{ n: number }>(countSql.text, countSql.params)).rows[0]?.n ?? 0);
  const totalCapped = matched > WEBHOOK_COUNT_CAP;
  const total = totalCapped ? WEBHOOK_COUNT_CAP : matched;
  return {
    rows: page.rows.map(toRow),
    total,
    page: query.page,
    pageSize: query.pageSize,
    totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
    totalCapped,
  };
}

/** One delivery with its headers and body (GET /webhook-deliveries/:id). */
export interface WebhookDeliveryDetail extends WebhookDeliveryRow {
  headers: Record<string, string>;
  /** The verified payload: parsed JSON, or the text as received when it is not JSON; null when not kept. */
  body: unknown;
}

interface StoredDetail extends StoredRow {
  headers: Record<string, string> | null;
  body: string | null;
}

async function loadDelivery(db: Queryable, id: number): Promise<StoredDetail | null> {
  const r = await db.query<StoredDetail>(
    `SELECT ${LIST_COLUMNS}, headers, body FROM webhook_deliveries WHERE id = $1`,
    [id],
  );
  return r.rows[0] ?? null;
}

function parseId(text: string): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) {
    throw badRequest(`id must be a positive whole number (got '${text.slice(0, 40)}')`);
  }
  return Number(text);
}

function bodyJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The audit outcome of a replay's result: ok when the delivery was accepted, else failed. */
function auditOutcomeOf(outcome: DeliveryOutcome): AuditOutcome {
  return outcome === 'invalid' || outcome === 'failed' ? 'failed' : 'ok';
}

/** Webhook inbox router (relative to the API prefix). */
export function webhookDeliveriesRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/webhook-deliveries', async (c) =>
    c.json(
      await queryWebhookDeliveries(readDbOf(deps), parseWebhookDeliveriesQuery(c.req.query())),
    ),
  );
  r.get('/webhook-deliveries/:id', async (c) => {
    const row = await loadDelivery(deps.db, parseId(c.req.param('id')));
    if (!row) throw notFound('No such webhook delivery');
    const detail: WebhookDeliveryDetail = {
      ...toRow(row),
      headers: row.headers ?? {},
      body: bodyJson(row.body),
    };
    return c.json(detail);
  });
  r.post('/webhook-deliveries/:id/replay', requireRole('admin'), async (c) => {
    const id = parseId(c.req.param('id'));
    const row = await loadDelivery(deps.db, id);
    if (!row) throw notFound('No such webhook delivery');
    if (row.body === null) {
      throw new ApiError(
        409,
        'not_replayable',
        'Only a verified delivery can be replayed; this one kept only its size',
      );
    }
    const facts: DeliveryFacts = {
      provider: row.provider === 'clickbank' ? 'clickbank' : 'lemonsqueezy',
      at: row.received_at,
      bodySize: row.body_size,
      headers: row.headers ?? {},
      body: row.body,
      event: row.event,
      email: row.email,
      subscriptionId: row.subscription_id,
      dedupKey: null,
    };
    const actor = requestActor(c, deps);
    const record = async (tx: Queryable, result: DeliveryResult) => {
      const now = deps.now();
      await tx.query(
        `UPDATE webhook_deliveries
            SET replayed_at = $2, replay_outcome = $3, dedup_key = COALESCE(dedup_key, $4)
          WHERE id = $1`,
        [id, now, result.outcome, facts.dedupKey],
      );
      await recordAudit(
        tx,
        actor,
        {
          action: 'webhook.replay',
          target: facts.email,
          outcome: auditOutcomeOf(result.outcome),
          detail: {
            delivery_id: id,
            provider: facts.provider,
            event: facts.event,
            result: result.outcome,
            ...(result.error ? { error: result.error.slice(0, 300) } : {}),
          },
        },
        now,
      );
    };
    let result: DeliveryResult;
    try {
      ({ result } =
        facts.provider === 'lemonsqueezy'
          ? await applyLemonSqueezyBody(deps, row.body, facts, record)
          : await applyClickbankPlain(
              deps,
              bodyJson(row.body) as Record<string, unknown>,
              facts,
              record,
            ));
    } catch (err) {
      // The replay's own transaction rolled back: its outcome and audit row are written alone.
      result =
        err instanceof ApiError
          ? { outcome: 'invalid', httpStatus: err.status, error: err.message, effects: [] }
          : {
              outcome: 'failed',
              httpStatus: 500,
              error: err instanceof Error ? err.message : String(err),
              effects: [],
            };
      if (result.outcome === 'failed') deps.log.error({ err, delivery_id: id }, 'replay failed');
      await deps.db.transaction((tx) => record(tx, result));
    }
    return c.json({ outcome: result.outcome, effects: result.effects, error: result.error });
  });
  return r;
}
