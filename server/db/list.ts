/**
 * Server list plumbing: one WHERE builder and one paged-list query shared by every
 * server-paged list (GET /users, GET /subscriptions; next /logs and /isr-events).
 *
 * How to use it (a list over table `t` with rows hydrated from `t` and friends):
 *
 * ```ts
 * const w = new Where();
 * if (q.level) w.add('l.level = ANY(?::text[])', q.level);           // '?' = next parameter
 * if (q.email) w.need('customer').add(`c.email LIKE ? ESCAPE '\\'`, like(q.email)); // join by name
 * const { rows, total, totalPages } = await pagedList<DbRow>(deps.db, {
 *   from: 'logs l',                                   // base table + alias; its id is the row id
 *   id: 'l.id',
 *   joins: { customer: 'JOIN customers c ON c.id = l.customer_id' }, // only added when needed
 *   sort: { keys: ['l.ts'], dir: 'desc' },            // the id is appended as the last tie-breaker
 *   where: w,
 *   unfilteredTotal: rowCountSql('logs'),             // optional cheap exact total (003 triggers)
 *   columns: 'l.id, l.ts, l.level, l.msg',            // read from the hydrate joins below
 *   hydrate: 'JOIN logs l ON l.id = p.id',            // `p` holds the page's ids
 *   page: q.page, pageSize: q.pageSize,
 * });
 * ```
 *
 * The query (one round trip, rows plus total):
 * 1. The page's ids are chosen first by a narrow query that joins only what the filters and the
 *    sort need (`joins` named by `Where.need` and `sort.joins`), ordered by the sort keys and the
 *    id in the same direction (nulls sort as the largest value), `LIMIT pageSize OFFSET …`. With an
 *    index on (key, id) this reads the page straight off the index in either direction.
 * 2. With filters, every match (id and keys) is computed once in a MATERIALIZED CTE, counted and
 *    the page cut from it, so a filter that correlates with the sort never walks a whole index.
 *    Without filters the page comes from the sort index and the total from `unfilteredTotal`.
 * 3. Only the page's rows are joined with their columns (`hydrate`), so deep pages stay cheap.
 * A page past the end answers no rows and the true total.
 *
 * All SQL is portable PostgreSQL (Db and PostgreSQL 15).
 */
import type { Queryable } from './types';
import type { SortDirection } from '../vocabulary';

/** A WHERE clause under construction: SQL fragments with positional parameters and the joins they need. */
export class Where {
  private readonly parts: string[] = [];
  private readonly needed = new Set<string>();
  /** Parameter values, in placeholder order ($1, $2, …). */
  readonly params: unknown[] = [];

  /**
   * Adds the condition `sql` (ANDed with the others), where each '?' becomes the next parameter
   * placeholder bound to the next of `values` (every '?' is a placeholder: write the jsonb `?`
   * operator as jsonb_exists(col, ?)). Throws when placeholders and values differ in number.
   * Returns this, for chaining.
   */
  add(sql: string, ...values: unknown[]): this {
    let i = 0;
    const text = sql.replace(/\?/g, () => `$${this.params.length + ++i}`);
    if (i !== values.length)
      throw new Error(`Where.add: ${i} placeholders but ${values.length} values in ${sql}`);
    this.parts.push(text);
    this.params.push(...values);
    return this;
  }

  /** Marks named joins (keys of PagedListSpec.joins) as needed by the conditions. Returns this. */
  need(...joins: string[]): this {
    for (const j of joins) this.needed.add(j);
    return this;
  }

  /** True when join `name` was marked needed. */
  needs(name: string): boolean {
    return this.needed.has(name);
  }

  /** True when no condition was added (the unfiltered list). */
  get empty(): boolean {
    return this.parts.length === 0;
  }

  /** 'WHERE a AND b', or '' when empty. */
  get sql(): string {
    return this.parts.length === 0 ? '' : `WHERE ${this.parts.join(' AND ')}`;
  }
}

/** What pagedList reads. SQL fragments are trusted code (never user text); values go through Where. */
export interface PagedListSpec {
  /** Base table and alias of the list, e.g. 'subscriptions s'. */
  from: string;
  /** The unique row id expression, e.g. 's.id': the last tie-breaker, and `p.id` for `hydrate`. */
  id: string;
  /** Joins the narrow id query may need, by name (e.g. `{customer: 'JOIN customers c ON …'}`); added in this order. */
  joins?: Record<string, string>;
  /**
   * The sort: key expressions before the id (e.g. ['s.start_date'] or ['s.start_date', 's.id']),
   * one direction for all (ASC puts nulls last, DESC first) and the named joins the keys read.
   */
  sort: { keys: string[]; dir: SortDirection; joins?: string[] };
  /** The filters. */
  where: Where;
  /** Exact total of the unfiltered list as a scalar SQL expression (e.g. rowCountSql); default count(*) over `from`. */
  unfilteredTotal?: string;
  /**
   * Optional page query for the unfiltered list, when a plain ORDER BY cannot use an index (e.g. a
   * sort key from a LEFT JOINed table). Given the LIMIT and OFFSET placeholders, it returns the
   * page's rows as columns `id, k0, k1, …` (the sort keys in order), in any order.
   */
  unfilteredPage?: (limit: string, offset: string) => string;
  /** Columns of a page row (aliases as the caller wants them), read from the `hydrate` joins. */
  columns: string;
  /** Joins bringing the columns, keyed on the page id `p.id`, e.g. 'JOIN subscriptions s ON s.id = p.id'. */
  hydrate: string;
  /** Page number ≥ 1 and page size ≥ 1 (validated by the route). */
  page: number;
  pageSize: number;
}

/** One page of a list: its rows (in order), the total number of matches and max(1, ceil(total / pageSize)). */
export interface PagedList<Row> {
  rows: Row[];
  total: number;
  totalPages: number;
}

/** Total pages for `total` rows: max(1, ceil(total / pageSize)) — an empty list is "page 1 of 1" (§9). */
export function totalPagesOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * Scalar SQL reading the exact row count of `table` kept by the row_counts triggers (migrations
 * 003 and 026: one slot per database connection, summed): O(1) instead of count(*) over the whole
 * table. `table` must be one of ROW_COUNTED_TABLES.
 */
export function rowCountSql(table: RowCountedTable): string {
  return `(SELECT COALESCE(sum(n), 0) FROM row_counts WHERE table_name = '${table}')::int`;
}

/** Tables whose row count migration 003 keeps in row_counts. */
export const ROW_COUNTED_TABLES = ['subscriptions', 'members'] as const;
/** One of ROW_COUNTED_TABLES. */
export type RowCountedTable = (typeof ROW_COUNTED_TABLES)[number];

/** The SQL and parameters pagedList sends (exported for tests and the benchmark's --explain). */
export function pagedListSql(spec: PagedListSpec): { sql: string; params: unknown[] } {
  const { where, sort } = spec;
  const n = where.params.length;
  const limit = `$${n + 1}::int`;
  const offset = `$${n + 2}::int`;
  const dir = sort.dir === 'desc' ? 'DESC' : 'ASC';
  const keyNames = sort.keys.map((_, i) => `k${i}`);
  const order = (prefix: string) =>
    [...keyNames, 'id'].map((k) => `${prefix}${k} ${dir}`).join(', ');
  const keyCols = sort.keys.map((k, i) => `, ${k} AS k${i}`).join('');
  const sortJoins = new Set(sort.joins ?? []);
  const joinsFor = (filters: boolean) =>
    Object.entries(spec.joins ?? {})
      .filter(([name]) => sortJoins.has(name) || (filters && where.needs(name)))
      .map(([, sql]) => ` ${sql}`)
      .join('');
  const hydrateKeys = [...keyNames, 'id'].map((k) => `p.${k} AS _${k}`).join(', ');
  const rows = `SELECT ${hydrateKeys}, ${spec.columns} FROM p ${spec.hydrate}`;
  const finish = `SELECT t.total, r.* FROM t LEFT JOIN (${rows}) r ON true ORDER BY ${order('r._')}`;

  let sql: string;
  if (!where.empty) {
    sql = `WITH f AS MATERIALIZED (SELECT ${spec.id} AS id${keyCols} FROM ${spec.from}${joinsFor(true)} ${where.sql}),
     p AS (SELECT * FROM f ORDER BY ${order('f.')} LIMIT ${limit} OFFSET ${offset}),
     t AS (SELECT count(*)::int AS total FROM f)
${finish}`;
  } else {
    const page = spec.unfilteredPage
      ? spec.unfilteredPage(limit, offset)
      : `SELECT ${spec.id} AS id${keyCols} FROM ${spec.from}${joinsFor(false)}
        ORDER BY ${[...sort.keys, spec.id].map((k) => `${k} ${dir}`).join(', ')} LIMIT ${limit} OFFSET ${offset}`;
    const total = spec.unfilteredTotal ?? `(SELECT count(*)::int FROM ${spec.from})`;
    sql = `WITH p AS (${page}),
     t AS (SELECT ${total} AS total)
${finish}`;
  }
  return { sql, params: [...where.params, spec.pageSize, (spec.page - 1) * spec.pageSize] };
}

/**
 * Runs the page query of `spec` (module doc) in one round trip → the page's rows (as the
 * database returns `columns`, plus internal `_k*`/`_id` and `total` fields the caller ignores),
 * the total number of matching rows and totalPages.
 */
export async function pagedList<Row extends object>(
  db: Queryable,
  spec: PagedListSpec,
): Promise<PagedList<Row>> {
  const { sql, params } = pagedListSql(spec);
  const res = await db.query<Row & { total: number; _id: unknown }>(sql, params);
  const total = Number(res.rows[0]?.total ?? 0);
  const rows = res.rows.filter((r) => r._id !== null && r._id !== undefined);
  return { rows, total, totalPages: totalPagesOf(total, spec.pageSize) };
}

/** The pattern for a case-insensitive substring match `col LIKE ? ESCAPE '\'` of user `text` (wildcards escaped). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
