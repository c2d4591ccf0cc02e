/**
 * First-party integrated sales tracking, ISR (spec §2 Integrated Tracking and the Metrics ISR
 * panel, §3 ISR shapes, §4 ISR range buttons, §5 date-time wire format, §9 CSV). Pure: types,
 * ranges, chart pivots, the card figures and the CSV export. Money in integer cents, times UTC.
 */
import { toWireDateTime } from './format';
import type { ListQuery, ListSpec } from './list';
import {
  addUtcDays,
  normaliseProviderName,
  orderProviders,
  utcDay,
  type ProviderDailyRow,
} from './metrics';

/** §9: ISR events page size. */
export const ISR_EVENTS_PAGE_SIZE = 50;
/** §9: top affiliates limit. */
export const ISR_AFFILIATES_LIMIT = 12;
/** §2/§9: the affiliate text list shows the first 6. */
export const ISR_AFFILIATES_LISTED = 6;

/** An ISR time range on the wire: 'YYYY-MM-DD HH:MM:SS' UTC (or a day), '' = open. */
export interface IsrRange {
  from: string;
  to: string;
}

/** §3 ISR summary; null when the server leaves a figure out (the card shows a dash). */
export interface IsrSummary {
  totalAmountCents: number | null;
  totalEvents: number | null;
  clickbankAmountCents: number | null;
  clickbankEvents: number | null;
  lemonsqueezyAmountCents: number | null;
  lemonsqueezyEvents: number | null;
}

/** §3 ISR daily series row. */
export interface IsrDailyRow {
  /** 'YYYY-MM-DD' (UTC). */
  day: string | null;
  source: string | null;
  events: number;
  amountCents: number;
}

/** §3 top affiliate row. */
export interface IsrAffiliateRow {
  affiliate: string | null;
  amountCents: number;
  events: number;
}

/** §3 ISR event row. */
export interface IsrEvent {
  id: string | null;
  /** ISO UTC instant (or 'YYYY-MM-DD HH:MM:SS', UTC). */
  createdAt: string | null;
  source: string | null;
  orderId: string | null;
  receipt: string | null;
  productId: string | null;
  amountCents: number | null;
  currency: string | null;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  customerEmail: string | null;
  referrer: string | null;
}

/** One page of ISR events (§3 {rows, total}). */
export interface IsrEventsPage {
  rows: IsrEvent[];
  /** Matching events; with a search (q), counted only up to a cap (see isTotalCapped). */
  total: number;
  /** The server stopped counting search matches at `total` (docs/api.md totalCapped): show '1,000+'. */
  isTotalCapped: boolean;
}

/** §2 search form source choices ('' = any); clickbank is the default. */
export const ISR_SOURCES = ['', 'clickbank', 'lemonsqueezy', 'custom'] as const;
/** One source choice. */
export type IsrSource = (typeof ISR_SOURCES)[number];

/** ISR events search (§2 search form, §7 notes). '' = any; times are wire date-times. */
export interface IsrEventsQuery {
  q: string;
  source: string;
  affiliate: string;
  subid: string;
  receipt: string;
  orderId: string;
  timeFrom: string;
  timeTo: string;
  page: number;
  pageSize: number;
}

/** ISR events defaults (§2, §9): source clickbank, page 1, 50 rows. */
export const DEFAULT_ISR_EVENTS_QUERY: Readonly<IsrEventsQuery> = Object.freeze({
  q: '',
  source: 'clickbank',
  affiliate: '',
  subid: '',
  receipt: '',
  orderId: '',
  timeFrom: '',
  timeTo: '',
  page: 1,
  pageSize: ISR_EVENTS_PAGE_SIZE,
});

/* ------------------------------------------------------------------------------------------ */
/* §4 range buttons                                                                             */
/* ------------------------------------------------------------------------------------------ */

/** §2 range buttons, in days. */
export const ISR_RANGE_DAYS = [7, 14, 30] as const;
/** One range button. */
export type IsrRangeDays = (typeof ISR_RANGE_DAYS)[number];
/** §9: the default ISR range is 14 days. */
export const DEFAULT_ISR_RANGE_DAYS: IsrRangeDays = 14;

/** A range as the two datetime-local inputs hold it: 'YYYY-MM-DDTHH:MM[:SS]' (UTC). */
export interface LocalRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value with seconds, in UTC: 'YYYY-MM-DDTHH:MM:SS'. */
export function toLocalInputValue(date: Date): string {
  return `${utcDay(date)}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/**
 * §4: a range button of N days = from the start of the UTC day N−1 days ago through now.
 * e.g. 14 at 2026-11-20T12:00:00Z → {from:'2026-11-07T00:00:00', to:'2026-11-20T12:00:00'}.
 */
export function isrPresetRange(days: IsrRangeDays, now: Date): LocalRange {
  return { from: `${addUtcDays(now, -(days - 1))}T00:00:00`, to: toLocalInputValue(now) };
}

/** The button a range equals (for aria-pressed), or null for a hand-made range. */
export function matchingIsrPreset(range: LocalRange, now: Date): IsrRangeDays | null {
  return (
    ISR_RANGE_DAYS.find((days) => {
      const preset = isrPresetRange(days, now);
      return preset.from === range.from && preset.to === range.to;
    }) ?? null
  );
}

/** The datetime-local inputs → the wire range (§5 'YYYY-MM-DD HH:MM:SS'); malformed → ''. */
export function isrRangeToWire(range: LocalRange): IsrRange {
  return { from: toWireDateTime(range.from) ?? '', to: toWireDateTime(range.to) ?? '' };
}

/* ------------------------------------------------------------------------------------------ */
/* Cards and charts                                                                             */
/* ------------------------------------------------------------------------------------------ */

/**
 * Avg order (§2): total amount ÷ total events, in cents (rounded); null without events or amount.
 */
export function averageOrderCents(summary: IsrSummary): number | null {
  const { totalAmountCents: amount, totalEvents: events } = summary;
  if (amount == null || events == null || events <= 0) return null;
  return Math.round(amount / events);
}

/** True when a summary holds no figure at all (the panel shows a dash). */
export function isIsrSummaryEmpty(summary: IsrSummary): boolean {
  return Object.values(summary).every((v) => v == null) || (summary.totalEvents ?? 0) === 0;
}

/** The daily series pivoted per provider: amounts (cents) and event counts, with providers. */
export interface IsrDailyPivot {
  amounts: ProviderDailyRow[];
  events: ProviderDailyRow[];
  providers: string[];
}

/**
 * Pivots §3 daily rows ({day, source, events, amount_cents}, one per day and source) into per-day
 * rows per normalised provider, with totals. Days missing between the first and last (or between
 * `fromDay` and `toDay` when given) are filled with zeros, so the axis has no gaps.
 */
export function pivotIsrDaily(
  rows: readonly IsrDailyRow[],
  fromDay?: string,
  toDay?: string,
): IsrDailyPivot {
  const byDay = new Map<
    string,
    { amounts: Record<string, number>; events: Record<string, number> }
  >();
  const providers = new Set<string>();
  for (const row of rows) {
    if (!row.day || !/^\d{4}-\d{2}-\d{2}/.test(row.day)) continue;
    const day = row.day.slice(0, 10);
    const provider = normaliseProviderName(row.source ?? '');
    providers.add(provider);
    const bucket = byDay.get(day) ?? { amounts: {}, events: {} };
    bucket.amounts[provider] =
      (Object.hasOwn(bucket.amounts, provider) ? bucket.amounts[provider]! : 0) + row.amountCents;
    bucket.events[provider] =
      (Object.hasOwn(bucket.events, provider) ? bucket.events[provider]! : 0) + row.events;
    byDay.set(day, bucket);
  }
  const days = [...byDay.keys()].sort();
  const first = fromDay && /^\d{4}-\d{2}-\d{2}/.test(fromDay) ? fromDay.slice(0, 10) : days[0];
  const last =
    toDay && /^\d{4}-\d{2}-\d{2}/.test(toDay) ? toDay.slice(0, 10) : days[days.length - 1];
  const allDays: string[] = [];
  if (first && last && first <= last) {
    const start = new Date(`${first}T00:00:00Z`);
    for (let i = 0; i <= 3660; i += 1) {
      const day = addUtcDays(start, i);
      if (day > last) break;
      allDays.push(day);
    }
  }
  const ordered = orderProviders(providers);
  const toRow = (day: string, values: Record<string, number>): ProviderDailyRow => {
    const filled = Object.fromEntries(
      ordered.map((p) => [p, Object.hasOwn(values, p) ? values[p]! : 0]),
    );
    return { date: day, values: filled, total: ordered.reduce((sum, p) => sum + filled[p]!, 0) };
  };
  return {
    amounts: allDays.map((day) => toRow(day, byDay.get(day)?.amounts ?? {})),
    events: allDays.map((day) => toRow(day, byDay.get(day)?.events ?? {})),
    providers: ordered,
  };
}

/** A pie slice of the provider split by revenue (cents). */
export interface IsrProviderSlice {
  name: string;
  cnt: number;
}

/** §2 provider split pie: revenue (cents) per normalised provider over the range, largest first. */
export function isrProviderSplit(rows: readonly IsrDailyRow[]): IsrProviderSlice[] {
  const totals = new Map<string, number>();
  for (const row of rows) {
    const provider = normaliseProviderName(row.source ?? '');
    totals.set(provider, (totals.get(provider) ?? 0) + row.amountCents);
  }
  return [...totals]
    .filter(([, cents]) => cents > 0)
    .map(([name, cnt]) => ({ name, cnt }))
    .sort((a, b) => b.cnt - a.cnt || a.name.localeCompare(b.name));
}

/* ------------------------------------------------------------------------------------------ */
/* The events list (§2 search form, §7 notes) on the shared list rules                          */
/* ------------------------------------------------------------------------------------------ */

/**
 * The search form's values. `source`: '' is the default clickbank (§2), 'any' is no source
 * filter, else 'lemonsqueezy' or 'custom'.
 */
export interface IsrEventsFilters {
  q: string;
  source: string;
  affiliate: string;
  subid: string;
  receipt: string;
  orderId: string;
}

/** The source choice meaning "any source" (the default '' means clickbank, §2). */
export const ISR_SOURCE_ANY = 'any';

/** The ISR events list: search fields, the server's newest-first order, pages of 50 (§9). */
export const ISR_EVENTS_LIST: ListSpec<IsrEventsFilters, 'created_at'> = {
  fields: {
    q: { param: 'q', kind: 'text' },
    source: {
      param: 'source',
      kind: 'select',
      options: [ISR_SOURCE_ANY, 'lemonsqueezy', 'custom'],
    },
    affiliate: { param: 'affiliate', kind: 'text' },
    subid: { param: 'subid', kind: 'text' },
    receipt: { param: 'receipt', kind: 'text' },
    orderId: { param: 'order_id', kind: 'text' },
  },
  sortKeys: ['created_at'],
  defaultSort: { key: 'created_at', direction: 'desc' },
  sortEncoding: 'none',
  pageSizes: [ISR_EVENTS_PAGE_SIZE],
  defaultPageSize: ISR_EVENTS_PAGE_SIZE,
};

/** The `source` sent for a form value: '' → 'clickbank' (the default), 'any' → none. */
export function isrSourceParam(value: string): string {
  if (value === '') return 'clickbank';
  return value === ISR_SOURCE_ANY ? '' : value;
}

/**
 * The GET /isr-events search for a list state and the screen's range (wire date-times):
 * text trimmed (§5), source per {@link isrSourceParam}, time_from/time_to = the range.
 */
export function isrEventsQueryFromList(
  q: ListQuery<IsrEventsFilters, 'created_at'>,
  range: IsrRange,
): IsrEventsQuery {
  return {
    q: q.filters.q.trim(),
    source: isrSourceParam(q.filters.source),
    affiliate: q.filters.affiliate.trim(),
    subid: q.filters.subid.trim(),
    receipt: q.filters.receipt.trim(),
    orderId: q.filters.orderId.trim(),
    timeFrom: range.from,
    timeTo: range.to,
    page: q.page,
    pageSize: q.pageSize,
  };
}
