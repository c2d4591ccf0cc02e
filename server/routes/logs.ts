/**
 * GET /logs: the server's application log for the Logs screen (specification §2 Logs, §3 Log
 * entry, §7 `GET /logs page, pageSize, level, q`, §9 page sizes 50/100/200).
 *
 * Query (blank values are ignored, §5):
 * - page: whole number ≥ 1 (default 1); a page past the end answers no rows;
 * - pageSize: whole number 1–200 (default 50). Larger values are REFUSED with 400 (not capped),
 *   so a client never silently gets fewer rows than it asked for;
 * - level: trace | debug | info | warn | error | fatal (exact level, case-insensitive);
 * - q: up to 200 characters, a case-insensitive substring of the message or of the context's JSON
 *   text (LIKE wildcards are matched literally); no control characters but tab, newline and CR.
 *
 * Answer: `{rows: [{id, ts, level, msg, context}], total, totalPages, page, pageSize,
 * totalCapped}`, newest first (ts desc, then id desc); ts is ISO 8601 UTC, context the stored JSON
 * object or null. Totals without q are exact (per-level counts kept by triggers); with q the
 * matches are counted up to LOGS_SEARCH_COUNT_CAP (1 000): past it, total is the cap and
 * totalCapped is true.
 *
 * The query is self-contained here on purpose (a shared paged-list helper can replace it later);
 * migration 004 indexes it (trigram GIN on the search text, (level, ts, id), (ts, id)).
 */
import { Hono } from 'hono';
import { readDbOf, type AppDeps } from '../context';
import { z } from 'zod';
import { containsPattern } from '../db/list';
import { commonSearchWindow, SEARCH_PROBE_ROWS } from '../db/searchProbe';
import { validate } from '../http/body';
import { enumParam, pageParams, textParam } from '../http/fields';
import { iso } from '../access/params';

/** §9 log levels. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
/** Largest page size accepted (§9 Rows 50/100/200); larger is a 400. */
export const LOGS_MAX_PAGE_SIZE = 200;
/** Default page size (§9). */
export const LOGS_DEFAULT_PAGE_SIZE = 50;
/** A search's total is counted up to this many matches (then totalCapped is true). */
export const LOGS_SEARCH_COUNT_CAP = 1000;
/** Longest search text accepted (characters). */
export const LOGS_MAX_Q = 200;

/** The SQL search text of a row: must stay identical to the expression indexed by migration 004. */
const SEARCH_TEXT = `(msg || ' ' || coalesce(context::text, ''))`;

/** Length of the index-driving window of an identifier-like search (6 characters = 4 trigrams). */
const DRIVER_LENGTH = 6;

/**
 * The part of `q` that drives the trigram index: `q` itself, unless it is longer than
 * DRIVER_LENGTH and holds a digit or a symbol (an email, a receipt, an id). Then the
 * DRIVER_LENGTH-character window with the most digits and symbols: its trigrams are rare, while
 * the trigrams of '@example.com' or 'user' sit in most rows and make the index scan slow.
 * Every row matching q contains the window, so the result is unchanged. e.g.
 * searchDriver('user4242@example.com') → 'r4242@'; searchDriver('Discourse') → 'Discourse'.
 */
export function searchDriver(q: string): string {
  if (q.length <= DRIVER_LENGTH || !/[^A-Za-z\s]/.test(q)) return q;
  const weight = (ch: string) =>
    /[0-9]/.test(ch) ? 3 : /[A-Za-z]/.test(ch) ? 1 : /\s/.test(ch) ? 0 : 2;
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i + DRIVER_LENGTH <= q.length; i++) {
    let score = 0;
    for (const ch of q.slice(i, i + DRIVER_LENGTH)) score += weight(ch);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return q.slice(best, best + DRIVER_LENGTH);
}

/** One §3 Log entry as sent. */
export interface LogRow {
  id: number;
  ts: string | null;
  level: string;
  msg: string;
  context: unknown;
}

/** The GET /logs answer. */
export interface LogsPage {
  rows: LogRow[];
  total: number;
  totalPages: number;
  page: number;
  pageSize: number;
  /** True when a search matched more than LOGS_SEARCH_COUNT_CAP rows: total is then that cap ("1,000+"). */
  totalCapped: boolean;
}

/** Validated GET /logs parameters. */
export interface LogsQuery {
  page: number;
  pageSize: number;
  level?: (typeof LOG_LEVELS)[number];
  q?: string;
}

/** Reads and validates the query string → LogsQuery; throws 400 (ApiError) naming the bad parameter. */
export function parseLogsQuery(q: Record<string, string | undefined>): LogsQuery {
  return validate(logsQuerySchema, q);
}

/** GET /logs query (§7): page, pageSize (1–200, more is refused), level (§9), q (≤ LOGS_MAX_Q). */
const logsQuerySchema = z.object({
  ...pageParams(LOGS_MAX_PAGE_SIZE, LOGS_DEFAULT_PAGE_SIZE),
  level: enumParam('level', LOG_LEVELS),
  // Log messages are free text that may span lines: tab, newline and CR may be searched for.
  q: textParam('q', LOGS_MAX_Q, { allowLineSpace: true }),
});

/** Runs one page of the log query (newest first) with its total → LogsPage. */
export async function queryLogs(db: AppDeps['db'], query: LogsQuery): Promise<LogsPage> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.level) {
    params.push(query.level);
    where.push(`level = $${params.length}`);
  }
  if (query.q) {
    const driver = searchDriver(query.q);
    if (driver !== query.q) {
      // The trigram index is driven by the rarest-looking part of an identifier-like search; the
      // whole text is then checked on those rows only (`|| ''` keeps it out of the index scan).
      params.push(containsPattern(driver));
      where.push(`${SEARCH_TEXT} ILIKE $${params.length}`);
      params.push(containsPattern(query.q));
      where.push(`(${SEARCH_TEXT} || '') ILIKE $${params.length}`);
    } else {
      params.push(containsPattern(query.q));
      where.push(`${SEARCH_TEXT} ILIKE $${params.length}`);
    }
  }
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const offset = (query.page - 1) * query.pageSize;
  type Row = { id: number; ts: Date; level: string; msg: string; context: unknown };
  const pageSql = `SELECT id, ts, level, msg, context FROM logs ${whereSql}
      ORDER BY ts DESC, id DESC LIMIT ${query.pageSize} OFFSET ${offset}`;
  let rows: Row[];
  let total: number;
  let totalCapped = false;
  if (query.q) {
    // The route decides from the newest rows (../db/searchProbe.ts):
    // 1. probe the newest SEARCH_PROBE_ROWS rows (of the level, when given): m matches;
    // 2. common (m ≥ 2 %): walk the newest rows far enough to expect cap + 1 matches; finding
    //    them proves total > cap → "cap+", and the page is read newest first off the ts index;
    // 3. otherwise (or when that window falls short): the trigram index finds at most cap + 1
    //    matches; within the cap they are the exact set, counted and paged in memory.
    // The newest rows of the chosen level (level is always $1 when given).
    const levelOnly = query.level ? 'WHERE level = $1' : '';
    const probe = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n
         FROM (SELECT level, msg, context FROM logs ${levelOnly} ORDER BY ts DESC, id DESC LIMIT ${SEARCH_PROBE_ROWS}) AS logs
        ${whereSql}`,
      params,
    );
    const m = probe.rows[0]?.n ?? 0;
    let capped = false;
    const window = commonSearchWindow(m, LOGS_SEARCH_COUNT_CAP);
    if (window !== null) {
      const recent = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n
           FROM (SELECT level, msg, context FROM logs ${levelOnly} ORDER BY ts DESC, id DESC LIMIT ${window}) AS logs
          ${whereSql}`,
        params,
      );
      capped = (recent.rows[0]?.n ?? 0) > LOGS_SEARCH_COUNT_CAP;
    }
    if (capped) {
      total = LOGS_SEARCH_COUNT_CAP;
      totalCapped = true;
      rows = await db.transaction(async (tx) => {
        // Newest first off the ts (or level) index, stopping at the page: never a sort of every match.
        await tx.exec('SET LOCAL enable_bitmapscan = off');
        await tx.exec('SET LOCAL enable_seqscan = off');
        return (await tx.query<Row>(pageSql, params)).rows;
      });
    } else {
      const found = await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL enable_seqscan = off');
        return (
          await tx.query<{ id: number; ts: Date }>(
            `SELECT id, ts FROM logs ${whereSql} LIMIT ${LOGS_SEARCH_COUNT_CAP + 1}`,
            params,
          )
        ).rows;
      });
      if (found.length > LOGS_SEARCH_COUNT_CAP) {
        total = LOGS_SEARCH_COUNT_CAP;
        totalCapped = true;
        rows = (await db.query<Row>(pageSql, params)).rows;
      } else {
        total = found.length;
        const ids = [...found]
          .sort((a, b) => b.ts.getTime() - a.ts.getTime() || Number(b.id) - Number(a.id))
          .slice(offset, offset + query.pageSize)
          .map((r) => Number(r.id));
        rows =
          ids.length === 0
            ? []
            : (
                await db.query<Row>(
                  'SELECT id, ts, level, msg, context FROM logs WHERE id = ANY($1::bigint[]) ORDER BY ts DESC, id DESC',
                  [ids],
                )
              ).rows;
      }
    }
  } else {
    rows = (await db.query<Row>(pageSql, params)).rows;
    // Exact per-level counts kept by triggers (migration 004): a lookup, not a scan.
    const count = await db.query<{ n: string | number | null }>(
      `SELECT sum(n) AS n FROM logs_level_counts ${query.level ? 'WHERE level = $1' : ''}`,
      query.level ? [query.level] : [],
    );
    total = Number(count.rows[0]?.n ?? 0);
  }
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      ts: iso(r.ts),
      level: r.level,
      msg: r.msg,
      context: r.context ?? null,
    })),
    total,
    totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
    page: query.page,
    pageSize: query.pageSize,
    totalCapped,
  };
}

/** Logs router (relative to the API prefix): GET /logs → LogsPage; 400 on a bad parameter. */
export function logsRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/logs', async (c) =>
    c.json(await queryLogs(readDbOf(deps), parseLogsQuery(c.req.query()))),
  );
  return r;
}
