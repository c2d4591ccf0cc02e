/**
 * GET /search (docs/api.md "Search"): find anything from one text — customers by email or name,
 * LemonSqueezy subscription, order and customer ids, ClickBank receipts, affiliate nicknames and
 * TIDs by prefix; a pasted receipt or order id by exact value (also the ISR rows' own ids, such as
 * LemonSqueezy rebill orders '3000017-R2'); and the console's screens by name.
 *
 * Ranking, best first: an exact id, receipt, email or screen name; then an email prefix; then a
 * name prefix; then an id or receipt prefix; then affiliates and TIDs; then screen-name prefixes.
 * The answer keeps the kinds together: kinds in the order of their best result, each kind's
 * results in rank order. Matching ignores letter case.
 *
 * Speed: every branch is one range of an index in its own order, cut at the limit (migration
 * 017's text_pattern_ops indexes), and affiliate nicknames and TIDs, which repeat on many ISR rows,
 * are walked value by value (one index probe per distinct value), so the cost is the limit's,
 * not the table's. All branches go to the database as one statement.
 */
import type { Queryable } from '../db/types';

/** The kinds of search result. */
export const SEARCH_KINDS = [
  'customer',
  'subscription',
  'order',
  'receipt',
  'affiliate',
  'screen',
] as const;
/** One kind of search result. */
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Largest and default number of results. */
export const SEARCH_MAX_LIMIT = 50;
export const SEARCH_DEFAULT_LIMIT = 20;
/** Longest query, in characters after trimming. */
export const SEARCH_MAX_LENGTH = 200;

/** One result on the wire. */
export interface SearchResultJson {
  kind: SearchKind;
  /** How the result reads, e.g. 'Ada Lovelace · ada@example.com'. */
  label: string;
  /** The customer it belongs to, or null (affiliates, screens, an ISR row without an email). */
  email: string | null;
  /** The value that matched. */
  match: string;
  /** A console path without the /admin base, e.g. '/customers/ada%40example.com'. */
  href: string;
}

/** The console's screens and their paths (the sidebar's names). */
export const SCREENS: ReadonlyArray<{ name: string; path: string; aliases: readonly string[] }> = [
  { name: 'Dashboard', path: '/', aliases: ['home'] },
  { name: 'Metrics', path: '/metrics', aliases: [] },
  { name: 'Revenue', path: '/revenue', aliases: ['mrr'] },
  { name: 'Users', path: '/users', aliases: ['access'] },
  { name: 'Subscriptions', path: '/subscriptions', aliases: [] },
  { name: 'Integrated Tracking', path: '/isr', aliases: ['isr'] },
  { name: 'Webhooks', path: '/webhooks', aliases: ['deliveries'] },
  { name: 'Logs', path: '/logs', aliases: [] },
  { name: 'Audit', path: '/audit', aliases: [] },
  { name: 'Settings', path: '/settings', aliases: ['operators', 'account'] },
  { name: 'Maintenance', path: '/maintenance', aliases: [] },
];

/** Rank tiers (lower is better). */
const TIER = {
  exact: 0,
  emailPrefix: 1,
  namePrefix: 2,
  idPrefix: 3,
  affiliate: 4,
  screenPrefix: 5,
} as const;

interface Candidate extends SearchResultJson {
  tier: number;
  /** Order inside a tier: the branch's rank (BRANCH_RANK), then the value. */
  order: number;
  /** The matched value in lower case (compared by code unit, as the indexes order it). */
  value: string;
}

/** The branches' order inside a tier (the statement's order, which UNION ALL does not keep). */
const BRANCH_RANK: Record<string, number> = {
  email: 0,
  name: 1,
  isr_receipt: 2,
  receipt: 3,
  ls_subscription: 4,
  isr_order: 5,
  ls_order: 6,
  ls_customer: 7,
  affiliate: 8,
  tid: 9,
};

/** `text` as a LIKE prefix pattern: %, _ and \ match themselves. */
function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

const customerPath = (email: string): string => `/customers/${encodeURIComponent(email)}`;

interface Row {
  b: string;
  email: string | null;
  name: string | null;
  m: string;
  extra: string | null;
}

/**
 * Searches for `q` (trimmed, 1..SEARCH_MAX_LENGTH characters, no control characters) → at most
 * `limit` results, best first and grouped by kind (module doc).
 */
export async function search(db: Queryable, q: string, limit: number): Promise<SearchResultJson[]> {
  const lower = q.toLowerCase();
  const upper = q.toUpperCase();
  // $1 lower-case prefix, $2 prefix as typed, $3 upper-case prefix, $4 the exact values, $5 limit.
  const params = [prefixPattern(lower), prefixPattern(q), prefixPattern(upper), [q, upper], limit];
  const r = await db.query<Row>(
    `WITH RECURSIVE
      aff(v) AS (
        (SELECT lower(i.affiliate) FROM isr_events i
          WHERE i.affiliate IS NOT NULL AND lower(i.affiliate) LIKE $1
          ORDER BY lower(i.affiliate) USING ~<~ LIMIT 1)
        UNION ALL
        SELECT (SELECT lower(i.affiliate) FROM isr_events i
                 WHERE i.affiliate IS NOT NULL AND lower(i.affiliate) LIKE $1 AND lower(i.affiliate) ~>~ aff.v
                 ORDER BY lower(i.affiliate) USING ~<~ LIMIT 1)
          FROM aff WHERE aff.v IS NOT NULL),
      tid(v) AS (
        (SELECT lower(i.subid) FROM isr_events i
          WHERE i.subid IS NOT NULL AND lower(i.subid) LIKE $1
          ORDER BY lower(i.subid) USING ~<~ LIMIT 1)
        UNION ALL
        SELECT (SELECT lower(i.subid) FROM isr_events i
                 WHERE i.subid IS NOT NULL AND lower(i.subid) LIKE $1 AND lower(i.subid) ~>~ tid.v
                 ORDER BY lower(i.subid) USING ~<~ LIMIT 1)
          FROM tid WHERE tid.v IS NOT NULL)
    (SELECT 'email' AS b, c.email, c.name, c.email AS m, NULL AS extra FROM customers c
      WHERE c.email LIKE $1 ORDER BY c.email USING ~<~ LIMIT $5)
    UNION ALL
    (SELECT 'name', c.email, c.name, c.name, NULL FROM customers c
      WHERE c.name IS NOT NULL AND lower(c.name) LIKE $1 ORDER BY lower(c.name) USING ~<~ LIMIT $5)
    UNION ALL
    (SELECT 'ls_subscription', c.email, c.name, s.provider_id, NULL
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
      WHERE s.provider = 'lemonsqueezy' AND s.provider_id LIKE $2
      ORDER BY s.provider_id USING ~<~ LIMIT $5)
    UNION ALL
    (SELECT 'ls_order', c.email, c.name, s.payload -> 'attributes' ->> 'order_id', NULL
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
      WHERE s.provider = 'lemonsqueezy' AND (s.payload -> 'attributes' ->> 'order_id') LIKE $2
      ORDER BY (s.payload -> 'attributes' ->> 'order_id') USING ~<~ LIMIT $5)
    UNION ALL
    (SELECT 'ls_customer', c.email, c.name, s.payload -> 'attributes' ->> 'customer_id', NULL
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
      WHERE s.provider = 'lemonsqueezy' AND (s.payload -> 'attributes' ->> 'customer_id') LIKE $2
      ORDER BY (s.payload -> 'attributes' ->> 'customer_id') USING ~<~ LIMIT $5)
    UNION ALL
    (SELECT 'receipt', o.email, NULL, o.receipt, o.status FROM clickbank_orders o
      WHERE upper(o.receipt) LIKE $3 ORDER BY upper(o.receipt) USING ~<~ LIMIT $5)
    UNION ALL
    (SELECT CASE WHEN i.receipt = ANY ($4::text[]) THEN 'isr_receipt' ELSE 'isr_order' END,
            i.customer_email, NULL,
            CASE WHEN i.receipt = ANY ($4::text[]) THEN i.receipt ELSE i.order_id END, i.source
       FROM isr_events i
      WHERE (i.receipt = ANY ($4::text[]) OR i.order_id = ANY ($4::text[]))
      ORDER BY i.created_at DESC, i.id DESC LIMIT $5)
    UNION ALL
    (SELECT 'affiliate', NULL, NULL,
            (SELECT i.affiliate FROM isr_events i
              WHERE i.affiliate IS NOT NULL AND lower(i.affiliate) = aff.v LIMIT 1), NULL
       FROM aff WHERE aff.v IS NOT NULL LIMIT $5)
    UNION ALL
    (SELECT 'tid', NULL, NULL,
            (SELECT i.subid FROM isr_events i WHERE i.subid IS NOT NULL AND lower(i.subid) = tid.v LIMIT 1),
            NULL
       FROM tid WHERE tid.v IS NOT NULL LIMIT $5)`,
    params,
  );

  const candidates: Candidate[] = [];
  for (const row of r.rows) {
    const c = candidateOf(row, lower);
    if (c) candidates.push(c);
  }
  candidates.push(...screenCandidates(lower));
  return rankAndGroup(candidates, limit);
}

/** A customer's label: 'Name · email', or the email alone. */
const who = (email: string | null, name: string | null): string =>
  email === null ? '' : name ? `${name} · ${email}` : email;

/** A database row → its result, or null when the row names nothing to open. */
function candidateOf(row: Row, lower: string): Candidate | null {
  const m = row.m;
  if (m === null || m === '') return null;
  const exact = m.toLowerCase() === lower;
  const base = {
    order: BRANCH_RANK[row.b] ?? 99,
    value: m.toLowerCase(),
    match: m,
    email: row.email,
  };
  const href = row.email === null ? null : customerPath(row.email);
  switch (row.b) {
    case 'email':
      return href === null
        ? null
        : {
            ...base,
            kind: 'customer',
            tier: exact ? TIER.exact : TIER.emailPrefix,
            label: who(row.email, row.name),
            href,
          };
    case 'name':
      return href === null
        ? null
        : {
            ...base,
            kind: 'customer',
            tier: TIER.namePrefix,
            label: who(row.email, row.name),
            href,
          };
    case 'ls_subscription':
    case 'ls_order':
    case 'ls_customer': {
      if (href === null) return null;
      const [kind, what] =
        row.b === 'ls_subscription'
          ? (['subscription', 'subscription'] as const)
          : row.b === 'ls_order'
            ? (['order', 'order'] as const)
            : (['customer', 'customer'] as const);
      return {
        ...base,
        kind,
        tier: exact ? TIER.exact : TIER.idPrefix,
        label: `LemonSqueezy ${what} ${m} · ${who(row.email, row.name)}`,
        href,
      };
    }
    case 'receipt':
      if (href === null) return null;
      return {
        ...base,
        kind: 'receipt',
        tier: exact ? TIER.exact : TIER.idPrefix,
        label: `ClickBank receipt ${m}${row.extra ? ` (${row.extra})` : ''} · ${row.email}`,
        href,
      };
    case 'isr_receipt':
    case 'isr_order': {
      const isReceipt = row.b === 'isr_receipt';
      const param = isReceipt ? 'receipt' : 'order_id';
      return {
        ...base,
        kind: isReceipt ? 'receipt' : 'order',
        tier: TIER.exact,
        label: `${isReceipt ? 'Receipt' : 'Order'} ${m} · ${row.email ?? row.extra ?? 'ISR event'}`,
        href: href ?? `/isr?${param}=${encodeURIComponent(m)}`,
      };
    }
    case 'affiliate':
      return {
        ...base,
        kind: 'affiliate',
        tier: TIER.affiliate,
        label: `Affiliate ${m}`,
        href: `/isr?affiliate=${encodeURIComponent(m)}`,
      };
    case 'tid':
      return {
        ...base,
        kind: 'affiliate',
        tier: TIER.affiliate,
        label: `TID ${m}`,
        href: `/isr?subid=${encodeURIComponent(m)}`,
      };
    default:
      return null;
  }
}

/** The screens whose name, a word of it, or an alias starts with `lower`. */
function screenCandidates(lower: string): Candidate[] {
  const out: Candidate[] = [];
  SCREENS.forEach((s, index) => {
    const name = s.name.toLowerCase();
    const words = [name, ...name.split(' '), ...s.aliases];
    if (!words.some((w) => w.startsWith(lower))) return;
    out.push({
      kind: 'screen',
      label: s.name,
      email: null,
      match: s.name,
      href: s.path,
      tier: words.includes(lower) ? TIER.exact : TIER.screenPrefix,
      order: 100 + index,
      value: name,
    });
  });
  return out;
}

/**
 * The best `limit` candidates, one per (kind, match, href), ranked by tier, then branch order;
 * then regrouped: kinds in the order of their best result, each in rank order.
 */
function rankAndGroup(candidates: Candidate[], limit: number): SearchResultJson[] {
  const ranked = [...candidates].sort(
    (a, b) =>
      a.tier - b.tier || a.order - b.order || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  const seen = new Set<string>();
  const best: Candidate[] = [];
  for (const c of ranked) {
    // A customer found by email and by name is one result; ids and receipts are one per value.
    const key = c.kind === 'customer' ? `customer ${c.href}` : `${c.kind} ${c.match} ${c.href}`;
    if (seen.has(key)) continue;
    seen.add(key);
    best.push(c);
    if (best.length === limit) break;
  }
  const groups = new Map<SearchKind, SearchResultJson[]>();
  for (const c of best) {
    const result: SearchResultJson = {
      kind: c.kind,
      label: c.label,
      email: c.email,
      match: c.match,
      href: c.href,
    };
    const group = groups.get(c.kind);
    if (group) group.push(result);
    else groups.set(c.kind, [result]);
  }
  return [...groups.values()].flat();
}
