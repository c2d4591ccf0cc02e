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
 * 2. Without filters the page comes from the sort index and the total from `unfilteredTotal`.
 * 3. Kept totals: when every filter came through `Where.keep` (the broad ones: a provider, a
 *    status, a cadence, matching up to every other row) and the spec has `keptTotal`, the total
 *    is a sum over kept counts (migration 027), so half a million matches are not counted on
 *    every page; so is a Subscriptions range of whole UTC days on the start or the renewal
 *    (`Where.keepDay`, through `Where.dateRange`: counts per day, migration 033). When the
 *    matches are many (total² ≥ 4 × (offset + limit) × all rows), a sample
 *    of the unfiltered list's first rows (four times what the page needs if the matches were
 *    spread evenly) is read in order: if it holds the page, that is the page; if it holds enough
 *    matches that reading on takes under a quarter of the rows the cut reads, the page is read
 *    in sort order skipping the rows that do not match; else (a filter that correlates with the
 *    sort: cancelled members sorted by provider status, whose first rows are all active) the
 *    page is cut from the matches as in 4, having spent at most the sample. When the spec says
 *    an index reads the matches in sort order (`filtersInSortIndex`), the page is read off it;
 *    when the sort index carries the filters' columns (`filtersCoveredBySortIndex`) and the
 *    matches are not sparse, the page is read in sort order off it with no sample, skipping
 *    the rows that do not match without reading them.
 *    Range totals: when every filter came through `Where.range` (a date range on the list's own
 *    table, or an email fragment in a large share of its rows: addEmailFilter), the total is a
 *    count(*) the planner answers from an index alone, and the page is chosen as for kept
 *    totals: 100,000 subscriptions renewing in a week are counted, not gathered with their sort
 *    keys, and the page comes from the first rows of the sort order (or off the range's index,
 *    when it is the sort's).
 * 4. With other filters, every match (id and keys) is computed once in a MATERIALIZED CTE, counted
 *    and the page cut from it, so a filter that correlates with the sort never walks a whole index.
 * 5. Only the page's rows are joined with their columns (`hydrate`), so deep pages stay cheap.
 * 6. With `indexOnlyScans: false` the statement runs in a transaction of its own planned without
 *    index-only scans, for a substring filter whose trigram index the planner would pass over.
 *    The planner prices a LIKE '%…%' at a comparison's cost, so reading a whole covering sort
 *    index and testing every entry can look cheaper than the trigram index's matches on their
 *    table pages: at 1M subscriptions (rows of about 1.1 kB), 'ana' (39,941 matches on 36,608
 *    pages) was read off the email sort index by three processes in 150 ms, where the trigram
 *    index takes 70 ms on one. A text in a large share of the rows is the other way round
 *    (emailFilterRead, TRIGRAM_MAX_SHARE).
 * A page past the end answers no rows and the true total.
 *
 * All SQL is portable PostgreSQL (Db and PostgreSQL 15).
 */
import type { Db } from './types';
import type { SortDirection } from '../vocabulary';

/** A WHERE clause under construction: SQL fragments with positional parameters and the joins they need. */
export class Where {
  private readonly parts: string[] = [];
  private readonly keptParts: string[] = [];
  private readonly needed = new Set<string>();
  private plain = false;
  private ranges = 0;
  private readonly keptDims = new Set<string>();
  private correction: { index: number; sql: string; sign: 1 | -1 } | null = null;
  /** Parameter values, in placeholder order ($1, $2, …). */
  readonly params: unknown[] = [];

  /**
   * Adds the condition `sql` (ANDed with the others), where each '?' becomes the next parameter
   * placeholder bound to the next of `values` (every '?' is a placeholder: write the jsonb `?`
   * operator as jsonb_exists(col, ?)). Throws when placeholders and values differ in number.
   * A list with such a condition counts its matches (see `keep` for the ones kept counts answer).
   * Returns this, for chaining.
   */
  add(sql: string, ...values: unknown[]): this {
    this.plain = true;
    this.parts.push(this.placeholders(sql, values, true));
    this.params.push(...values);
    return this;
  }

  /**
   * Adds a condition over an indexed column of the list's own table (`from`, no join) that may
   * match a large share of the rows, such as a date range: as `add`, but when every condition
   * came through `range` the matches are counted by the index alone and the page is read as for
   * kept totals (module doc, 3), instead of gathering every match to cut the page from. Returns this.
   */
  range(sql: string, ...values: unknown[]): this {
    this.ranges++;
    return this.add(sql, ...values);
  }

  /**
   * Adds a condition that the list's kept counts (PagedListSpec.keptTotal) answer too: `sql`
   * filters the list's rows as `add` does, `kept` selects the rows of the count table that count
   * the same matches. Both read `values` through '?' ('?' number k is value k; `kept` may use
   * fewer). When the kept rows miss some matches of `sql` (sign 1) or count some rows that `sql`
   * leaves out (sign -1), `correction.sql` is the list condition of those rows (same '?' values):
   * their count, read from the list with the other conditions, is added or subtracted (keep it
   * to a narrow, indexed set). One correction per Where; throws on a second, or when `sql` and
   * `values` differ in number.
   */
  keep(
    sql: string,
    kept: string,
    values: unknown[] = [],
    correction?: { sign: 1 | -1; sql: string },
  ): this {
    this.parts.push(this.placeholders(sql, values, true));
    this.keptParts.push(this.placeholders(kept, values, false));
    if (correction) {
      if (this.correction) throw new Error('Where.keep: one correction per Where');
      this.correction = {
        index: this.parts.length - 1,
        sql: this.placeholders(correction.sql, values, false),
        sign: correction.sign,
      };
    }
    this.params.push(...values);
    return this;
  }

  /**
   * Adds one bound of a date range that kept counts per UTC day answer (migration 033's
   * list_day_counts, dimension `dim`: 'start' or 'renew'): `sql` filters the list's rows as `add`
   * does, `kept` selects the day rows (their `day` column) that count the same matches, both
   * reading `values` as `keep` does. The bound must be a UTC midnight (isUtcMidnight), so the range
   * is whole days. It is a range too (`ranged`); a Where whose kept conditions span two
   * dimensions is counted instead (`kept` false). Returns this.
   */
  keepDay(dim: 'start' | 'renew', sql: string, kept: string, values: unknown[]): this {
    this.ranges++;
    this.keptDims.add(dim);
    this.parts.push(this.placeholders(sql, values, true));
    this.keptParts.push(this.placeholders(kept, values, false));
    this.params.push(...values);
    return this;
  }

  /**
   * Adds the date range [`range.from`, `range.toExclusive`) (either bound optional) over the
   * indexed timestamptz column `column` of the list's own table: from the kept day counts of `dim`
   * (keepDay) when every given bound is a UTC midnight, as the console's date filters are, else
   * counted off the column's index (`range`). Returns this.
   */
  dateRange(
    column: string,
    range: { from?: Date | null; toExclusive?: Date | null },
    dim: 'start' | 'renew',
  ): this {
    const bounds: Array<[Date | null | undefined, string]> = [
      [range.from, '>='],
      [range.toExclusive, '<'],
    ];
    const whole = bounds.every(([d]) => d == null || isUtcMidnight(d));
    for (const [d, op] of bounds) {
      if (d == null) continue;
      if (whole) {
        const kept = `day ${op} (?::timestamptz AT TIME ZONE 'UTC')::date`;
        this.keepDay(dim, `${column} ${op} ?`, kept, [d]);
      } else this.range(`${column} ${op} ?`, d);
    }
    return this;
  }

  private placeholders(sql: string, values: unknown[], exact: boolean): string {
    let i = 0;
    const text = sql.replace(/\?/g, () => `$${this.params.length + ++i}`);
    if (exact ? i !== values.length : i > values.length)
      throw new Error(`Where: ${i} placeholders but ${values.length} values in ${sql}`);
    return text;
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

  /**
   * True when every condition came through `keep` or `keepDay`, with at most one day dimension:
   * kept counts can answer the total.
   */
  get kept(): boolean {
    return !this.plain && this.keptDims.size <= 1;
  }

  /** The day dimension of the kept conditions (keepDay), or null when none is a date range. */
  get keptDim(): 'start' | 'renew' | null {
    const [dim] = this.keptDims;
    return (dim as 'start' | 'renew' | undefined) ?? null;
  }

  /** True when there are conditions and every one came through `range` or `keepDay`. */
  get ranged(): boolean {
    return this.parts.length > 0 && this.ranges === this.parts.length;
  }

  /** 'WHERE a AND b', or '' when empty. */
  get sql(): string {
    return this.parts.length === 0 ? '' : `WHERE ${this.conditions}`;
  }

  /** 'a AND b' over the list's rows, or 'true' when empty. */
  get conditions(): string {
    return this.parts.length === 0 ? 'true' : this.parts.join(' AND ');
  }

  /** 'a AND b' over the count table (the `kept` fragments of `keep`), or 'true'. */
  get keptConditions(): string {
    return this.keptParts.length === 0 ? 'true' : this.keptParts.join(' AND ');
  }

  /** The correction of the kept counts (see `keep`): its sign and list conditions, or null. */
  get keptCorrection(): { sign: 1 | -1; conditions: string } | null {
    const c = this.correction;
    if (!c) return null;
    const conditions = this.parts.map((p, i) => (i === c.index ? c.sql : p)).join(' AND ');
    return { sign: c.sign, conditions };
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
   * Exact total from kept counts, for a Where whose conditions all came through `Where.keep` or
   * `Where.keepDay`: given the count-table conditions (Where.keptConditions) and the day dimension
   * (Where.keptDim: null reads the counts of migration 027, else the day counts of 033), a scalar
   * SQL expression summing the matching counts. Without it, or with any other condition, the
   * matches are counted.
   */
  keptTotal?: (keptConditions: string, dim: 'start' | 'renew' | null) => string;
  /**
   * Optional page query for the unfiltered list and the kept-count or range filters, when a plain ORDER BY
   * cannot use an index (e.g. a sort key from a LEFT JOINed table). Given the LIMIT and OFFSET
   * placeholders and the list conditions (Where.conditions, 'true' when unfiltered), it returns
   * the page's rows as columns `id, k0, k1, …` (the sort keys in order), in any order.
   */
  indexPage?: (limit: string, offset: string, conditions: string) => string;
  /**
   * True when an index reads the matches of kept-count or range filters in sort order (the
   * filters are equalities or a range on its leading columns and the sort keys follow, e.g.
   * members by (mg_status, expires_at, id) for an mg_status filter sorted by expiry, or
   * subscriptions by (start_date, id) for a start range sorted by start): the page of a kept or
   * range total is then read off it in order, with no sample (module doc, 3). Such a filter may
   * correlate with the sort completely (the active members mostly have no expiry, which sorts
   * after every date; a start range begins past the first starts), which the sample would take
   * for sparse matches and cut from all of them.
   */
  filtersInSortIndex?: boolean;
  /**
   * True when the sort's index carries the columns of every filter (INCLUDE columns, e.g.
   * members by (updated_at, id) with the member's provider, status, cadence, start, access
   * status and expiry): reading the list in sort order and skipping the rows that do not match
   * then reads the index alone. Kept-count or range filters matching at least one row in
   * COVERED_ENTRY_RATIO read their page that way, with no sample (module doc, 3): a filter that
   * correlates with the sort (monthly subscriptions by latest renewal, whose first rows are all
   * yearly) skips a stretch of index entries instead of gathering and sorting every match.
   * Sparser ones read their sample off the index too. Not with `indexPage`.
   */
  filtersCoveredBySortIndex?: boolean;
  /** Columns of a page row (aliases as the caller wants them), read from the `hydrate` joins. */
  columns: string;
  /** Joins bringing the columns, keyed on the page id `p.id`, e.g. 'JOIN subscriptions s ON s.id = p.id'. */
  hydrate: string;
  /** Page number ≥ 1 and page size ≥ 1 (validated by the route). */
  page: number;
  pageSize: number;
  /**
   * False to plan the statement without index-only scans (`SET LOCAL enable_indexonlyscan = off`
   * in a transaction of its own, module doc, 6); default true. For a substring filter that its
   * trigram index serves best (emailFilterRead) on a table whose covering sort indexes hold
   * the filtered column.
   */
  indexOnlyScans?: boolean;
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

/**
 * PagedListSpec.keptTotal of the list `list`: the sum of the counts migration 027 keeps per
 * (provider, status, cadence, mg_status, dated) that match the count-table conditions (Where.keep's
 * `kept` fragments over those columns; dated: expires_at is set), or with a day dimension the
 * Subscriptions counts migration 033 keeps per (day of the start or renewal, provider, status,
 * cadence) (Where.keepDay's fragments over `day` besides). The Users list keeps no day counts:
 * its SQL throws for a day dimension.
 */
export function listCountSql(
  list: 'users' | 'subscriptions',
): (keptConditions: string, dim: 'start' | 'renew' | null) => string {
  return (kept, dim) => {
    if (dim === null)
      return `(SELECT COALESCE(sum(n), 0) FROM list_filter_counts WHERE list = '${list}' AND ${kept})`;
    if (list !== 'subscriptions') throw new Error(`listCountSql: no day counts for ${list}`);
    return `(SELECT COALESCE(sum(n), 0) FROM list_day_counts WHERE dim = '${dim}' AND ${kept})`;
  };
}

/** True when `d` is a UTC midnight, so a range bounded by it is whole UTC days (Where.dateRange). */
export function isUtcMidnight(d: Date): boolean {
  return d.getTime() % 86_400_000 === 0;
}

/** Tables whose row count migration 003 keeps in row_counts. */
export const ROW_COUNTED_TABLES = ['subscriptions', 'members'] as const;
/** One of ROW_COUNTED_TABLES. */
export type RowCountedTable = (typeof ROW_COUNTED_TABLES)[number];

/**
 * The sample of a kept-total page (module doc, 3) reads WALK_FACTOR times the rows the page needs
 * if its matches were spread evenly, and is only tried when that is at most the number of
 * matches (total² ≥ WALK_FACTOR × (offset + limit) × all rows): beyond, cutting the page from the
 * matches reads fewer rows. At 1M customers on PostgreSQL 15 (bench/README.md, "Kept list
 * totals") filters matching 1.3% of the rows were cut faster than walked (Users sorted by email:
 * 129 ms against 352 ms) and filters matching 2–3% walked faster (scheduled members of one
 * provider: 19 ms against 97 ms).
 */
const WALK_FACTOR = 4;

/**
 * How many index entries a walk over a sort index that carries the filters' columns
 * (filtersCoveredBySortIndex) reads and tests, without the table, for the cost of one match the
 * cut gathers from the table and sorts. Measured at 1M customers on PostgreSQL 15: a walk over a
 * whole index of 1M entries, one process, 300–400 ms; the cut of 10,484 matches 110–160 ms, so
 * about 30; a third of that leaves room for entries whose table page a recent write left to be
 * checked. With such an index, filters matching at least one row in COVERED_ENTRY_RATIO walk
 * however the matches lie (at worst the whole index, for what the cut pays for a tenth of the
 * table), and sparser ones take their sample, and walk on from it, COVERED_ENTRY_RATIO times as
 * readily as over the table.
 */
const COVERED_ENTRY_RATIO = 10;

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
  /** The sort keys and the id over the list's own rows, in the list's direction. */
  const sortOrder = [...sort.keys, spec.id].map((k) => `${k} ${dir}`).join(', ');
  const sortJoins = new Set(sort.joins ?? []);
  const joinsFor = (filters: boolean) =>
    Object.entries(spec.joins ?? {})
      .filter(([name]) => sortJoins.has(name) || (filters && where.needs(name)))
      .map(([, sql]) => ` ${sql}`)
      .join('');
  const hydrateKeys = [...keyNames, 'id'].map((k) => `p.${k} AS _${k}`).join(', ');
  const rows = `SELECT ${hydrateKeys}, ${spec.columns} FROM p ${spec.hydrate}`;
  const finish = `SELECT t.total, r.* FROM t LEFT JOIN (${rows}) r ON true ORDER BY ${order('r._')}`;

  const filterJoins = Object.entries(spec.joins ?? {})
    .filter(([name]) => where.needs(name))
    .map(([, sql]) => ` ${sql}`)
    .join('');
  /**
   * The list's rows in sort order, `id, k0, …`, LIMIT `lim` OFFSET `off`: all of them, or (with
   * `filtered`) the matches, the other rows skipped as the sort index is read.
   */
  const orderedPage = (lim: string, off: string, filtered: boolean) =>
    spec.indexPage
      ? spec.indexPage(lim, off, filtered ? where.conditions : 'true')
      : `SELECT ${spec.id} AS id${keyCols} FROM ${spec.from}${joinsFor(filtered)} ${filtered ? where.sql : ''}
        ORDER BY ${sortOrder} LIMIT ${lim} OFFSET ${off}`;
  const matches = `SELECT ${spec.id} AS id${keyCols} FROM ${spec.from}${joinsFor(true)} ${where.sql}`;
  const cut = `SELECT * FROM f ORDER BY ${order('f.')} LIMIT ${limit} OFFSET ${offset}`;
  /** The total from kept counts, corrected by counting the rows of Where.keep's correction. */
  const keptTotalOf = (keptTotal: NonNullable<PagedListSpec['keptTotal']>) => {
    const c = where.keptCorrection;
    const correction = c
      ? ` ${c.sign > 0 ? '+' : '-'} (SELECT count(*) FROM ${spec.from}${joinsFor(true)} WHERE ${c.conditions})`
      : '';
    return `(${keptTotal(where.keptConditions, where.keptDim)}${correction})::int`;
  };

  /**
   * The total of kept filters from their counts, of range filters by count(*) with only the joins
   * the filters need (module doc, 3).
   */
  const totalOf = (keptTotal: PagedListSpec['keptTotal']) =>
    where.kept && keptTotal
      ? keptTotalOf(keptTotal)
      : `(SELECT count(*) FROM ${spec.from}${filterJoins} ${where.sql})::int`;

  let sql: string;
  if (where.empty) {
    const total = spec.unfilteredTotal ?? `(SELECT count(*)::int FROM ${spec.from})`;
    sql = `WITH p AS (${orderedPage(limit, offset, false)}),
     t AS (SELECT ${total} AS total)
${finish}`;
  } else if (((where.kept && spec.keptTotal) || where.ranged) && spec.filtersInSortIndex) {
    sql = `WITH p AS (${orderedPage(limit, offset, true)}),
     t AS (SELECT ${totalOf(spec.keptTotal)} AS total)
${finish}`;
  } else if ((where.kept && spec.keptTotal) || where.ranged) {
    const total = totalOf(spec.keptTotal);
    const all = spec.unfilteredTotal ?? `(SELECT count(*) FROM ${spec.from})`;
    const wanted = `(${limit} + ${offset})`;
    // The sample reads the unfiltered list's first walk_rows rows in order (WALK_FACTOR times
    // what the page needs if the matches were spread evenly, never more than the matches) and
    // keeps the matching ones. When it holds the page (or every row), those are the page's rows.
    // When it holds fewer, but enough that, at the density it found, reading on to the page
    // takes under a quarter of the rows the cut reads, the page is read in sort order, skipping
    // the rows that do not match. Else (a filter that correlates with the sort: cancelled members
    // sorted by provider status, whose first rows are all active) the page is cut from all the
    // matches (f). When the sort index carries the filters' columns (filtersCoveredBySortIndex),
    // reading on costs a tenth (COVERED_ENTRY_RATIO): matches that are not sparse are walked with
    // no sample (covered_walk, walk_rows 0), and sparser ones are sampled off the index, testing
    // each entry's columns without its row. The branches not taken are one-time filters that
    // never run, and f is never computed when nothing reads it.
    const covered = spec.filtersCoveredBySortIndex === true;
    if (covered && (spec.indexPage || filterJoins))
      throw new Error(
        'pagedListSql: filtersCoveredBySortIndex needs the plain sort order and filters on the list’s own table',
      );
    const ratio = covered ? COVERED_ENTRY_RATIO : 1;
    const times = ratio === 1 ? '' : ` * ${ratio}`;
    const coveredWalk = covered ? `x.total::bigint * ${ratio} >= x.all_rows` : 'false';
    const sampled = covered
      ? `SELECT pre.id${keyNames.map((k) => `, pre.${k}`).join('')} FROM (
           SELECT ${spec.id} AS id${keyCols}, (${where.conditions}) AS hit FROM ${spec.from}${joinsFor(false)}
            ORDER BY ${sortOrder} LIMIT (SELECT t.walk_rows FROM t)) pre
        WHERE pre.hit`
      : `SELECT pre.* FROM (${orderedPage('(SELECT t.walk_rows FROM t)', '0', false)}) pre
         JOIN ${spec.from} ON ${spec.id} = pre.id${filterJoins}
        WHERE ${where.conditions}`;
    sql = `WITH x AS MATERIALIZED (
       SELECT ${total} AS total, (${all})::bigint AS all_rows),
     t AS MATERIALIZED (
       SELECT x.total, x.all_rows, ${coveredWalk} AS covered_walk,
              CASE WHEN ${coveredWalk} THEN 0
                   WHEN x.total::bigint * x.total${times} >= ${WALK_FACTOR} * ${wanted}::bigint * x.all_rows
                   THEN LEAST(x.all_rows, ceil(${WALK_FACTOR} * ${wanted}::numeric * x.all_rows / NULLIF(x.total, 0)))::bigint
                   ELSE 0 END AS walk_rows
         FROM x),
     walked AS MATERIALIZED (
       ${sampled}
        ORDER BY ${order('pre.')} LIMIT ${wanted}),
     found AS MATERIALIZED (
       SELECT NOT t.covered_walk AND (w.n >= ${wanted} OR t.walk_rows >= t.all_rows) AS sample,
              t.covered_walk OR CASE WHEN w.n > 0 AND w.n < ${wanted}
                   THEN ${wanted}::numeric * t.walk_rows / w.n <= t.total${times} / 4.0 ELSE false END AS walk
         FROM t, (SELECT count(*) AS n FROM walked) w),
     f AS MATERIALIZED (${matches}),
     p AS (SELECT * FROM (SELECT * FROM walked ORDER BY ${order('walked.')} LIMIT ${limit} OFFSET ${offset}) w
            WHERE (SELECT sample FROM found)
           UNION ALL
           SELECT * FROM (${orderedPage(limit, offset, true)}) k WHERE (SELECT walk FROM found)
           UNION ALL
           SELECT * FROM (${cut}) c WHERE NOT (SELECT sample OR walk FROM found))
${finish}`;
  } else {
    sql = `WITH f AS MATERIALIZED (${matches}),
     p AS (${cut}),
     t AS (SELECT count(*)::int AS total FROM f)
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
  db: Db,
  spec: PagedListSpec,
): Promise<PagedList<Row>> {
  const { sql, params } = pagedListSql(spec);
  type Answer = Row & { total: number; _id: unknown };
  const res =
    spec.indexOnlyScans === false
      ? await db.transaction((tx) => tx.query<Answer>(sql, params), {
          settings: { enable_indexonlyscan: 'off' },
        })
      : await db.query<Answer>(sql, params);
  const total = Number(res.rows[0]?.total ?? 0);
  const rows = res.rows.filter((r) => r._id !== null && r._id !== undefined);
  return { rows, total, totalPages: totalPagesOf(total, spec.pageSize) };
}

/**
 * True when a trigram index (pg_trgm) narrows a search for `text` by a trigram inside a word:
 * the text holds three letters or digits in a row ('ana', 'n.pet'). pg_trgm splits text into
 * words at every other character; a shorter run gives no trigram ('ab') or only the padded ones
 * of a word's start or end ('a.b': the words starting with 'b'), which many rows share.
 */
export function trigramSelective(text: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(text);
}

/**
 * The punctuation of an address that email_trigram_text (migration 047) turns into digits, one
 * for one: '.' → '0', '+' → '1', '@' → '2', '_' → '3', '-' → '4'. Kept equal to the migration's
 * translate() (server/db/list.test.ts compares the two).
 */
const EMAIL_TRIGRAM_FROM = '.+@_-';

/**
 * `text` as the joined email trigram indexes hold an address (migration 047): its usual
 * punctuation turned into digits, so that a fragment across it ('a.m' → 'a0m') is one word with
 * trigrams of its own. The same function as SQL's email_trigram_text.
 */
export function emailTrigramText(text: string): string {
  return text.replace(/[.+@_-]/g, (ch) => String(EMAIL_TRIGRAM_FROM.indexOf(ch)));
}

/** The email filter of a list (emailContains). */
export interface EmailFilter {
  /** The alias of the list's table the condition reads (emailContains's `alias`). */
  alias: string;
  /** The condition, for Where.add with `values`. */
  sql: string;
  values: string[];
  /** The part of `sql` that a trigram index reads (one placeholder, `values[0]`), or null when none narrows it. */
  indexed: string | null;
  /**
   * The same filter as one LIKE over the column (one placeholder, `values[0]`): what a filter
   * that no index narrows tests on each entry of an index holding the email (addEmailFilter).
   */
  exact: string;
}

/**
 * The filter "`alias`.email (lower case) contains `text`" of the Users and Subscriptions lists.
 * A fragment with a trigram inside a word ('hugo', 'n.pet') is the exact LIKE alone, which the
 * email's trigram index reads (migration 034). One with a trigram only across the address's
 * punctuation ('a.m', 'k+8') is the same pattern over email_trigram_text, which the joined index
 * reads (migration 047), and strpos as the exact test of its candidates (an address with a '0'
 * where the fragment has a '.'). No index reads strpos: an exact LIKE beside it would also read
 * the first index's padded trigrams ('o.a', 4,757 matches at 1M: 156,123 entries, 17 → 40 ms).
 * Only such fragments read the joined index: computing email_trigram_text for every candidate
 * costs about a third more than the first index's recheck ('hugo', 12,538 rows: 22 → 31 ms).
 * `alias` is code's, never a request's.
 */
export function emailContains(alias: string, text: string): EmailFilter {
  const pattern = containsPattern(text);
  const exact = `${alias}.email LIKE ? ESCAPE '\\'`;
  const lower = text.toLowerCase();
  if (trigramSelective(lower))
    return { alias, sql: exact, values: [pattern], indexed: exact, exact };
  if (!trigramSelective(emailTrigramText(lower))) {
    return { alias, sql: exact, values: [pattern], indexed: null, exact };
  }
  const joined = `email_trigram_text(${alias}.email) LIKE email_trigram_text(?) ESCAPE '\\'`;
  return {
    alias,
    sql: `${joined} AND strpos(${alias}.email, ?) > 0`,
    values: [pattern, lower],
    indexed: joined,
    exact,
  };
}

/**
 * The largest share of a table's rows that a substring filter reads through its trigram index
 * (emailFilterRead) rather than by testing every entry of an index that holds the column.
 * Measured at 1M subscriptions (rows of about 1.1 kB) on PostgreSQL 15, every match with its
 * email, index-only scans allowed (three processes) → not: 'ana' (4 % of the rows) 155 → 70 ms,
 * 'mar' (6.5 %) 177 → 112, 'org' (30 %) 247 → 500, 'com' (70 %) 377 → 806.
 */
export const TRIGRAM_MAX_SHARE = 0.1;

/**
 * How a list reads its email filter (emailFilterRead):
 * - 'trigrams': through a trigram index, which narrows it to under TRIGRAM_MAX_SHARE of the rows;
 * - 'scan': no trigram index narrows it ('e.', 'a+'), and under TRIGRAM_MAX_SHARE of the rows
 *   match: each entry of an index holding the email is tested, and the page is cut from the
 *   matches;
 * - 'broad': TRIGRAM_MAX_SHARE of the rows or more match (a domain, '.co', 'e.c' in
 *   'example.com'): the total is counted off an index holding the email and the page read in sort
 *   order, skipping the rows that do not match (Where.range), rather than gathering every match.
 */
export type EmailRead = 'trigrams' | 'scan' | 'broad';

/**
 * How the list of `table` reads `filter` (EmailRead), from the planner's own estimate of its
 * matches (EXPLAIN, whose LIKE estimates follow the statistics of the column or of the indexed
 * expression) against the table's kept row count. Two statements side by side (one round trip on
 * the pool).
 */
export async function emailFilterRead(
  db: Db,
  table: RowCountedTable,
  filter: EmailFilter,
): Promise<EmailRead> {
  const [plan, rows] = await Promise.all([
    db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} ${filter.alias} WHERE ${(filter.indexed ?? filter.exact).replace('?', '$1')}`,
      [filter.values[0]],
    ),
    db.query<{ n: number }>(`SELECT ${rowCountSql(table)} AS n`),
  ]);
  const matches = plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? Infinity;
  if (matches >= TRIGRAM_MAX_SHARE * (rows.rows[0]?.n ?? 0)) return 'broad';
  return filter.indexed === null ? 'scan' : 'trigrams';
}

/**
 * Adds `filter` to `w` as `read` (emailFilterRead) has it read: a broad one as its exact LIKE
 * through Where.range (no index narrows it, so its trigram text is not computed for each row),
 * any other as its own condition (Where.add).
 */
export function addEmailFilter(w: Where, filter: EmailFilter, read: EmailRead): void {
  if (read === 'broad') w.range(filter.exact, filter.values[0]);
  else w.add(filter.sql, ...filter.values);
}

/** The pattern for a case-insensitive substring match `col LIKE ? ESCAPE '\'` of user `text` (wildcards escaped). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
