import type { Db, TransactionOptions } from './types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDb, resetDb, spyDb } from '../testing/app';
import {
  containsPattern,
  emailTrigramText,
  listCountSql,
  pagedList,
  pagedListSql,
  rowCountSql,
  totalPagesOf,
  trigramSelective,
  Where,
  type PagedListSpec,
} from './list';

describe('Where', () => {
  it('numbers the placeholders across conditions and joins them with AND', () => {
    const w = new Where().add('a = ?', 1).add('b BETWEEN ? AND ?', 2, 3).add(`c = 'x'`);
    expect(w.sql).toBe(`WHERE a = $1 AND b BETWEEN $2 AND $3 AND c = 'x'`);
    expect(w.params).toEqual([1, 2, 3]);
    expect(w.empty).toBe(false);
  });

  it('is empty with no condition', () => {
    const w = new Where();
    expect([w.sql, w.params, w.empty]).toEqual(['', [], true]);
  });

  it('records the joins its conditions need', () => {
    const w = new Where().need('customer').add('c.email = ?', 'a@b.co');
    expect(w.needs('customer')).toBe(true);
    expect(w.needs('subscription')).toBe(false);
  });

  it('refuses a placeholder count that does not match the values', () => {
    expect(() => new Where().add('a = ? AND b = ?', 1)).toThrow(/2 placeholders but 1 values/);
    expect(() => new Where().keep('a = ? AND b = ?', 'a = ?', [1])).toThrow(
      /2 placeholders but 1 values/,
    );
    expect(() => new Where().keep('a = ?', 'a = ? AND b = ?', [1])).toThrow(
      /2 placeholders but 1 values/,
    );
  });

  it('keeps conditions the kept counts answer, sharing their placeholders with the list', () => {
    const w = new Where()
      .keep('s.provider = ?', 'provider = ?', ['clickbank'])
      .keep(`m.mg_status = 'active' AND m.expires_at > ?`, `mg_status = 'active' AND dated`, [7], {
        sign: -1,
        sql: 'm.expires_at <= ?',
      });
    expect(w.kept).toBe(true);
    expect(w.sql).toBe(`WHERE s.provider = $1 AND m.mg_status = 'active' AND m.expires_at > $2`);
    expect(w.keptConditions).toBe(`provider = $1 AND mg_status = 'active' AND dated`);
    expect(w.keptCorrection).toEqual({
      sign: -1,
      conditions: 's.provider = $1 AND m.expires_at <= $2',
    });
    expect(w.params).toEqual(['clickbank', 7]);
    expect(w.add('x = ?', 1).kept).toBe(false);
    expect(() => w.keep('y', 'y', [], { sign: 1, sql: 'z' })).toThrow(/one correction/);
  });

  it('is ranged only when every condition came through range', () => {
    const w = new Where().range('m.expires_at >= ?', 1).range('m.expires_at < ?', 2);
    expect([w.ranged, w.kept, w.sql]).toEqual([
      true,
      false,
      'WHERE m.expires_at >= $1 AND m.expires_at < $2',
    ]);
    expect(new Where().ranged).toBe(false);
    expect(new Where().range('a >= ?', 1).add('b = ?', 2).ranged).toBe(false);
    expect(new Where().range('a >= ?', 1).keep('b = ?', 'b = ?', [2]).ranged).toBe(false);
  });

  it('is kept and has no correction with no condition', () => {
    const w = new Where();
    expect([w.kept, w.conditions, w.keptConditions, w.keptCorrection]).toEqual([
      true,
      'true',
      'true',
      null,
    ]);
  });
});

describe('totalPagesOf and containsPattern', () => {
  it('counts pages, an empty list being page 1 of 1', () => {
    expect([
      totalPagesOf(0, 50),
      totalPagesOf(1, 50),
      totalPagesOf(50, 50),
      totalPagesOf(51, 50),
    ]).toEqual([1, 1, 1, 2]);
  });

  it('lower-cases and escapes LIKE wildcards', () => {
    expect(containsPattern('Ann_a%\\')).toBe('%ann\\_a\\%\\\\%');
  });

  it('tells a text with a trigram inside a word (three letters or digits in a row)', () => {
    const texts = ['ana', 'n.pet', '+123@', 'Zoë', 'łódź', 'ab', 'a.b', '+1@', '12', 'a_b%c', ''];
    expect(texts.filter(trigramSelective)).toEqual(['ana', 'n.pet', '+123@', 'Zoë', 'łódź']);
  });
});

describe('emailTrigramText', () => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('turns the punctuation into digits as SQL email_trigram_text does (migration 047)', async () => {
    const texts = [
      'ann.lee+1@x.test',
      'a_b-c',
      "o'neil!#$%&*/=?^`{|}~@ex.io",
      'Zoë.ŁÓDŹ',
      '\\%_',
      '',
    ];
    const sql = await db.query<{ t: string }>(
      'SELECT email_trigram_text(x) AS t FROM unnest($1::text[]) WITH ORDINALITY u(x, n) ORDER BY n',
      [texts],
    );
    expect(texts.map(emailTrigramText)).toEqual(sql.rows.map((r) => r.t));
    expect(emailTrigramText('ann.lee+1@x.test')).toBe('ann0lee112x0test');
  });
});

describe('pagedListSql', () => {
  const base = (where: Where): PagedListSpec => ({
    from: 'items i',
    id: 'i.id',
    joins: { owner: 'JOIN owners o ON o.id = i.owner_id' },
    sort: { keys: ['i.rank'], dir: 'desc' },
    where,
    columns: 'i.id, i.rank',
    hydrate: 'JOIN items i ON i.id = p.id',
    page: 3,
    pageSize: 10,
  });

  it('appends LIMIT and OFFSET after the filter parameters and joins only what is needed', () => {
    const { sql, params } = pagedListSql(base(new Where().need('owner').add('o.name = ?', 'x')));
    expect(params).toEqual(['x', 10, 20]);
    expect(sql).toContain('LIMIT $2::int OFFSET $3::int');
    expect(sql).toContain('JOIN owners o ON o.id = i.owner_id');
    expect(sql).toContain('MATERIALIZED');
    expect(sql).toContain('ORDER BY f.k0 DESC, f.id DESC');
  });

  it('without filters reads the sort order directly, with the id as the last tie-breaker', () => {
    const { sql, params } = pagedListSql(base(new Where()));
    expect(params).toEqual([10, 20]);
    expect(sql).not.toContain('MATERIALIZED');
    expect(sql).not.toContain('owners');
    expect(sql).toContain('ORDER BY i.rank DESC, i.id DESC LIMIT $1::int OFFSET $2::int');
    expect(sql).toContain('(SELECT count(*)::int FROM items i)');
  });

  it('uses the given unfiltered total and page query', () => {
    const spec = {
      ...base(new Where()),
      unfilteredTotal: rowCountSql('members'),
      indexPage: (l: string, o: string, c: string) =>
        `SELECT 1 AS id, 2 AS k0 WHERE ${c} LIMIT ${l} OFFSET ${o}`,
    };
    const { sql } = pagedListSql(spec);
    expect(sql).toContain(
      `(SELECT COALESCE(sum(n), 0) FROM row_counts WHERE table_name = 'members')::int`,
    );
    expect(sql).toContain('SELECT 1 AS id, 2 AS k0 WHERE true LIMIT $1::int OFFSET $2::int');
  });

  it('with kept filters sums the kept counts and chooses between walking and cutting', () => {
    const keptSpec = (where: Where) => ({ ...base(where), keptTotal: listCountSql('users') });
    const kept = pagedListSql(keptSpec(new Where().keep('i.kind = ?', 'status = ?', ['a'])));
    expect(kept.params).toEqual(['a', 10, 20]);
    expect(kept.sql).toContain(
      `(SELECT COALESCE(sum(n), 0) FROM list_filter_counts WHERE list = 'users' AND status = $1)`,
    );
    // The walk reads the unfiltered order and keeps the matches; the cut orders every match.
    expect(kept.sql).toContain(
      'ORDER BY i.rank DESC, i.id DESC LIMIT (SELECT t.walk_rows FROM t) OFFSET 0',
    );
    expect(kept.sql).toContain('JOIN items i ON i.id = pre.id');
    expect(kept.sql).toContain('WHERE i.kind = $1');
    expect(kept.sql).toContain('ORDER BY f.k0 DESC, f.id DESC');
    expect(kept.sql).toMatch(/x\.total::bigint \* x\.total >= \d+ \* \(\$2::int \+ \$3::int\)/);
    // An index that reads the matches in sort order: the page is read off it, no sample.
    const inIndex = pagedListSql({
      ...keptSpec(new Where().keep('i.kind = ?', 'status = ?', ['a'])),
      filtersInSortIndex: true,
    });
    expect(inIndex.sql).toContain('list_filter_counts');
    expect(inIndex.sql).not.toContain('walk_rows');
    expect(inIndex.sql).toMatch(
      /WHERE i\.kind = \$1\s+ORDER BY i\.rank DESC, i\.id DESC LIMIT \$2::int OFFSET \$3::int/,
    );
    // An index that carries the filters' columns: matches that are not sparse skip the sample.
    expect(kept.sql).toContain('false AS covered_walk');
    const covered = pagedListSql({
      ...keptSpec(new Where().keep('i.kind = ?', 'status = ?', ['a'])),
      filtersCoveredBySortIndex: true,
    });
    expect(covered.sql).toMatch(/x\.total::bigint \* \d+ >= x\.all_rows AS covered_walk/);
    expect(covered.sql).toContain('walk_rows');
    // Range conditions alone: counted by count(*), the page chosen as for kept filters, or read
    // off the index that holds them in sort order.
    const ranged = pagedListSql(base(new Where().range('i.rank >= ?', 3)));
    expect(ranged.sql).toContain('(SELECT count(*) FROM items i WHERE i.rank >= $1)::int AS total');
    expect(ranged.sql).toContain('walk_rows');
    expect(ranged.sql).not.toContain('list_filter_counts');
    const rangedInIndex = pagedListSql({
      ...base(new Where().range('i.rank >= ?', 3)),
      filtersInSortIndex: true,
    });
    expect(rangedInIndex.sql).not.toContain('walk_rows');
    expect(rangedInIndex.sql).toContain('(SELECT count(*) FROM items i WHERE i.rank >= $1)::int');
    // A join the sort needs is no part of the count.
    const sortJoined = pagedListSql({
      ...base(new Where().range('i.rank >= ?', 3)),
      sort: { keys: ['o.name'], dir: 'asc', joins: ['owner'] },
    });
    expect(sortJoined.sql).toContain('(SELECT count(*) FROM items i WHERE i.rank >= $1)::int');
    expect(sortJoined.sql).toContain('JOIN owners o ON o.id = i.owner_id');
    // Any other condition counts its matches; without keptTotal, so do kept conditions.
    const mixed = new Where().keep('i.kind = ?', 'status = ?', ['a']).add('i.rank > ?', 3);
    expect(pagedListSql(keptSpec(mixed)).sql).not.toContain('list_filter_counts');
    expect(
      pagedListSql(base(new Where().keep('i.kind = ?', 'status = ?', ['a']))).sql,
    ).not.toContain('list_filter_counts');
  });
});

describe('pagedList on the database', () => {
  let db: Db;
  const queries: string[] = [];
  /** The settings of each transaction pagedList opened (the statements in it are in `queries`). */
  const transactions: (TransactionOptions['settings'] | undefined)[] = [];
  const recording = (): Db =>
    spyDb(db, {
      query: (sql) => queries.push(sql),
      transaction: (options) => transactions.push(options?.settings),
    });

  beforeAll(async () => {
    db = await freshDb();
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await resetDb(db);
    queries.length = 0;
    transactions.length = 0;
    // 23 customers; every third one without a name; members updated on 5 distinct days (ties).
    await db.exec(`
      INSERT INTO customers (email, name)
        SELECT 'user' || g || '@example.com', CASE WHEN g % 3 = 0 THEN NULL ELSE 'User ' || g END FROM generate_series(1, 23) g;
      INSERT INTO members (customer_id, mg_status, updated_at)
        SELECT id, CASE WHEN id % 4 = 0 THEN 'cancelled' ELSE 'active' END, '2026-11-01T00:00:00Z'::timestamptz + (id % 5) * interval '1 day'
          FROM customers;
    `);
  });

  const spec = (
    where: Where,
    page: number,
    dir: 'asc' | 'desc' = 'desc',
    pageSize = 5,
  ): PagedListSpec => ({
    from: 'members m',
    id: 'm.id',
    joins: { customer: 'JOIN customers c ON c.id = m.customer_id' },
    sort: { keys: ['m.updated_at'], dir },
    where,
    unfilteredTotal: rowCountSql('members'),
    columns: 'm.id AS row_id, c.email',
    hydrate: 'JOIN members m ON m.id = p.id JOIN customers c ON c.id = m.customer_id',
    page,
    pageSize,
  });

  async function reference(filter: string, dir: 'ASC' | 'DESC', page: number, pageSize = 5) {
    const r = await db.query<{ row_id: number }>(
      `SELECT m.id AS row_id FROM members m JOIN customers c ON c.id = m.customer_id ${filter}
        ORDER BY m.updated_at ${dir}, m.id ${dir} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    );
    return r.rows.map((x) => Number(x.row_id));
  }

  it('answers the page rows and the total in one query, ties broken by the id', async () => {
    for (const page of [1, 2, 5]) {
      queries.length = 0;
      const got = await pagedList<{ row_id: number; email: string }>(
        recording(),
        spec(new Where(), page),
      );
      expect(queries).toHaveLength(1);
      expect(got.total).toBe(23);
      expect(got.totalPages).toBe(5);
      expect(got.rows.map((r) => Number(r.row_id))).toEqual(await reference('', 'DESC', page));
    }
  });

  it('filters, counts the matches and cuts the page from them', async () => {
    const where = () =>
      new Where()
        .need('customer')
        .add(`m.mg_status = ?`, 'active')
        .add(`c.email LIKE ? ESCAPE '\\'`, containsPattern('1'));
    const filter = `WHERE m.mg_status = 'active' AND c.email LIKE '%1%'`;
    const all = (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM members m JOIN customers c ON c.id = m.customer_id ${filter}`,
      )
    ).rows[0]?.n;
    expect(all).toBeGreaterThan(5);
    for (const page of [1, 2]) {
      const got = await pagedList<{ row_id: number }>(recording(), spec(where(), page, 'asc'));
      expect(got.total).toBe(all);
      expect(got.rows.map((r) => Number(r.row_id))).toEqual(await reference(filter, 'ASC', page));
    }
  });

  it('plans the statement without index-only scans in a transaction of its own when asked', async () => {
    const where = () =>
      new Where().need('customer').add(`c.email LIKE ? ESCAPE '\\'`, containsPattern('user1'));
    const filter = `WHERE c.email LIKE '%user1%'`;
    for (const page of [1, 2]) {
      queries.length = 0;
      transactions.length = 0;
      const plain = await pagedList<{ row_id: number }>(recording(), spec(where(), page));
      expect(transactions).toEqual([]);
      const steered = await pagedList<{ row_id: number }>(recording(), {
        ...spec(where(), page),
        indexOnlyScans: false,
      });
      expect(transactions).toEqual([{ enable_indexonlyscan: 'off' }]);
      expect(queries).toHaveLength(2);
      expect(queries[1]).toBe(queries[0]);
      expect(steered.total).toBe(11); // user1 and user10 … user19
      expect(steered).toEqual(plain);
      expect(steered.rows.map((r) => Number(r.row_id))).toEqual(
        await reference(filter, 'DESC', page),
      );
    }
  });

  /**
   * The branch that answered `s`, from its plan: the UNION ALL's arm that returned rows (1 the
   * sample, 2 the walk, 3 the cut); for an empty page, the cut when the matches were computed.
   */
  async function branchOf(s: PagedListSpec): Promise<'sample' | 'walk' | 'cut'> {
    const { sql, params } = pagedListSql(s);
    const plan = (
      await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params)
    ).rows.map((r) => r['QUERY PLAN']);
    const arms = plan
      .map((line) => /Subquery Scan on "\*SELECT\* (\d)".*?rows=(\d+)/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(arms.map(([arm]) => arm)).toEqual([1, 2, 3]);
    const taken = arms.find(([, rows]) => rows > 0)?.[0];
    if (taken !== undefined) return (['sample', 'walk', 'cut'] as const)[taken - 1]!;
    const cte = plan.findIndex((line) => line.trim() === 'CTE f');
    expect(cte).toBeGreaterThan(0);
    return plan[cte + 1]!.includes('never executed') ? 'sample' : 'cut';
  }
  const keptSpec = (status: string, page: number, pageSize: number): PagedListSpec => ({
    ...spec(new Where().keep('m.mg_status = ?', 'mg_status = ?', [status]), page, 'asc', pageSize),
    keptTotal: listCountSql('users'),
  });

  it('with kept filters, totals from the kept counts and walks or cuts the page to the same rows', async () => {
    // 18 active and 5 cancelled members, none with a subscription: 23 rows in all, and with
    // pages of 2 the active ones are read from a sample of the sort order (18² ≥ 4 × 2 × 23), the
    // cancelled ones cut from their matches (5² < 4 × 2 × 23), as the plan shows.
    const cases: Array<[string, number, number, 'sample' | 'cut']> = [
      ['active', 2, 1, 'sample'],
      ['active', 2, 9, 'cut'],
      ['cancelled', 2, 1, 'cut'],
      ['cancelled', 2, 3, 'cut'],
      ['active', 5, 4, 'cut'],
    ];
    for (const [status, pageSize, page, branch] of cases) {
      const s = keptSpec(status, page, pageSize);
      queries.length = 0;
      const got = await pagedList<{ row_id: number }>(recording(), s);
      expect(queries).toHaveLength(1);
      expect(queries[0]).toContain('list_filter_counts');
      expect(got.total).toBe(status === 'active' ? 18 : 5);
      expect(got.rows.map((r) => Number(r.row_id))).toEqual(
        await reference(`WHERE m.mg_status = '${status}'`, 'ASC', page, pageSize),
      );
      expect([status, page, await branchOf(s)]).toEqual([status, page, branch]);
    }
  });

  it('with kept filters that correlate with the sort, cuts the page when the walk finds too few', async () => {
    // The 14 cancelled members are the 14 updated last. For page 1 a walk of the first
    // ceil(4 × 1 × 23 / 14) = 7 rows in update order finds none of them, so the page is cut from
    // the matches; for page 2 the sample of 14 rows finds 5, enough; pages 14 and 15 (past the
    // end) want too much of the matches to sample at all.
    await db.exec(`UPDATE members SET mg_status = CASE WHEN id > 9 THEN 'cancelled' ELSE 'active' END,
                     updated_at = '2026-11-01T00:00:00Z'::timestamptz + id * interval '1 hour'`);
    const cases: Array<[number, number[], 'sample' | 'cut']> = [
      [1, [10], 'cut'],
      [2, [11], 'sample'],
      [14, [23], 'cut'],
      [15, [], 'cut'],
    ];
    for (const [page, rows, branch] of cases) {
      const s = keptSpec('cancelled', page, 1);
      const got = await pagedList<{ row_id: number }>(recording(), s);
      expect(got.total).toBe(14);
      expect([page, got.rows.map((r) => Number(r.row_id)), await branchOf(s)]).toEqual([
        page,
        rows,
        branch,
      ]);
    }
  });

  it('with kept filters the sort index carries, walks off it with no sample unless the matches are sparse', async () => {
    // As above, the cancelled members are the ones updated last, so the first rows in update
    // order are all active. With an index carrying the filter's column, 14 matches of 23 are
    // dense enough (14 × 10 ≥ 23) to walk for every page, the sample never read; 2 matches of
    // 23 are not (2 × 10 < 23), and their page is cut as without the index.
    const covered = (page: number): PagedListSpec => ({
      ...keptSpec('cancelled', page, 1),
      filtersCoveredBySortIndex: true,
    });
    for (const [cancelledAfter, page, rows, branch] of [
      [9, 1, [10], 'walk'],
      [9, 2, [11], 'walk'],
      [9, 14, [23], 'walk'],
      [21, 1, [22], 'cut'],
      [21, 2, [23], 'cut'],
    ] as const) {
      await db.exec(`UPDATE members SET mg_status = CASE WHEN id > ${cancelledAfter} THEN 'cancelled' ELSE 'active' END,
                       updated_at = '2026-11-01T00:00:00Z'::timestamptz + id * interval '1 hour'`);
      const s = covered(page);
      const got = await pagedList<{ row_id: number }>(recording(), s);
      expect(got.total).toBe(23 - cancelledAfter);
      expect([page, got.rows.map((r) => Number(r.row_id)), await branchOf(s)]).toEqual([
        page,
        rows,
        branch,
      ]);
    }
  });

  it('with kept filters the sort index carries, samples sparse matches off it more readily', async () => {
    // 223 members, 15 cancelled: too sparse to walk blind (15 × 10 < 223). Off the table a
    // sample is not worth it (15² < 4 × 1 × 223) and the page is cut; off an index carrying the
    // filter it is (15² × 10 ≥ 4 × 1 × 223): the first ceil(4 × 223 / 15) = 60 entries hold the
    // page when the cancelled members are the first in update order, and none when they are the
    // last, which are then cut.
    await db.exec(`
      INSERT INTO customers (email) SELECT 'sparse' || g || '@example.com' FROM generate_series(1, 200) g;
      INSERT INTO members (customer_id, mg_status) SELECT id, 'active' FROM customers WHERE email LIKE 'sparse%';`);
    for (const [first, covered, rows, branch] of [
      [true, true, [1], 'sample'],
      [true, false, [1], 'cut'],
      [false, true, [209], 'cut'],
    ] as const) {
      await db.exec(`UPDATE members SET updated_at = '2026-11-01T00:00:00Z'::timestamptz + id * interval '1 hour',
                       mg_status = CASE WHEN ${first ? 'id <= 15' : 'id > 208'} THEN 'cancelled' ELSE 'active' END`);
      const s = { ...keptSpec('cancelled', 1, 1), filtersCoveredBySortIndex: covered };
      const got = await pagedList<{ row_id: number }>(recording(), s);
      expect(got.total).toBe(15);
      expect([first, covered, got.rows.map((r) => Number(r.row_id)), await branchOf(s)]).toEqual([
        first,
        covered,
        rows,
        branch,
      ]);
    }
  });

  it('with kept filters, walks on past a sample that holds part of the page', async () => {
    // 400 members in update order; cancelled: number 5 and the even ones from 18, 193 in all.
    // Pages of 2: the sample is the first ceil(4 × 2 × 400 / 193) = 17 rows, holding one match
    // (5); at that density the walk reads 2 × 17 / 1 = 34 rows, under a quarter of 193, so the
    // page is read in sort order: 5 and 18.
    await resetDb(db);
    await db.exec(`
      INSERT INTO customers (email) SELECT 'walk' || g || '@example.com' FROM generate_series(1, 400) g;
      INSERT INTO members (customer_id, mg_status, updated_at)
        SELECT id, CASE WHEN id = 5 OR (id >= 18 AND id % 2 = 0) THEN 'cancelled' ELSE 'active' END,
               '2026-11-01T00:00:00Z'::timestamptz + id * interval '1 minute'
          FROM customers ORDER BY id;
    `);
    for (const [page, rows] of [
      [1, [5, 18]],
      [2, [20, 22]],
    ] as const) {
      const s = keptSpec('cancelled', page, 2);
      const got = await pagedList<{ row_id: number }>(recording(), s);
      expect(got.total).toBe(193);
      expect(got.rows.map((r) => Number(r.row_id))).toEqual(rows);
      expect(got.rows.map((r) => Number(r.row_id))).toEqual(
        await reference(`WHERE m.mg_status = 'cancelled'`, 'ASC', page, 2),
      );
      expect([page, await branchOf(s)]).toEqual([page, page === 1 ? 'walk' : 'sample']);
    }
  });

  it('with range filters, counts the matches and samples, walks or cuts the page to the same rows', async () => {
    // Members 1..23 updated on 5 days. Pages of 2 sorted by update (ascending): ids from 2 match
    // 22 rows, sampled (22² ≥ 4 × 2 × 23); ids below 6 match 5, cut (5² < 4 × 2 × 23); and a
    // range on the sort key itself is read off its index.
    const cases: Array<[string, string, unknown, number, number, 'sample' | 'cut' | 'index']> = [
      ['m.id >= ?', 'm.id >= 2', 2, 22, 1, 'sample'],
      ['m.id >= ?', 'm.id >= 2', 2, 22, 11, 'cut'],
      ['m.id < ?', 'm.id < 6', 6, 5, 2, 'cut'],
      [
        'm.updated_at >= ?',
        `m.updated_at >= '2026-11-03T00:00:00Z'`,
        '2026-11-03T00:00:00Z',
        14,
        3,
        'index',
      ],
    ];
    for (const [sql, filter, value, total, page, branch] of cases) {
      const s = {
        ...spec(new Where().range(sql, value), page, 'asc', 2),
        filtersInSortIndex: branch === 'index',
      };
      queries.length = 0;
      const got = await pagedList<{ row_id: number }>(recording(), s);
      expect(queries).toHaveLength(1);
      expect(queries[0]).toContain('count(*) FROM members m WHERE');
      expect([filter, page, got.total]).toEqual([filter, page, total]);
      expect(got.rows.map((r) => Number(r.row_id))).toEqual(
        await reference(`WHERE ${filter}`, 'ASC', page, 2),
      );
      if (branch === 'index') expect(queries[0]).not.toContain('walk_rows');
      else expect([filter, page, await branchOf(s)]).toEqual([filter, page, branch]);
    }
  });

  it('answers no rows and the true total for a page past the end, filtered or not', async () => {
    const past = await pagedList(recording(), spec(new Where(), 9));
    expect([past.rows, past.total, past.totalPages]).toEqual([[], 23, 5]);
    const filtered = await pagedList(
      recording(),
      spec(new Where().add(`m.mg_status = 'cancelled'`), 4),
    );
    expect([filtered.rows, filtered.total]).toEqual([[], 5]);
    const none = await pagedList(recording(), spec(new Where().add('m.id < 0'), 1));
    expect([none.rows, none.total, none.totalPages]).toEqual([[], 0, 1]);
  });

  it('keeps row_counts exact through INSERT, DELETE and TRUNCATE', async () => {
    const count = async () =>
      (await db.query<{ n: number }>(`SELECT ${rowCountSql('members')} AS n`)).rows[0]?.n;
    expect(await count()).toBe(23);
    await db.exec(`DELETE FROM members WHERE id % 2 = 0`);
    expect(await count()).toBe(12);
    await db.exec(`INSERT INTO customers (email) VALUES ('late@example.com');
      INSERT INTO members (customer_id, mg_status) SELECT id, 'active' FROM customers WHERE email = 'late@example.com'`);
    expect(await count()).toBe(13);
    await db.exec('UPDATE members SET mg_status = mg_status');
    expect(await count()).toBe(13);
    await resetDb(db);
    expect(await count()).toBe(0);
  });
});
