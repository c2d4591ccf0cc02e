/**
 * Pure value helpers shared by the routes: UTC date parsing, date ranges, email
 * normalisation and ISO serialisation (LIKE patterns: server/db/list.ts containsPattern). Request validation itself is zod (server/http/fields.ts
 * builds the fields from these helpers; server/http/body.ts runs the schemas and answers 400).
 *
 * Dates are UTC: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM' or 'YYYY-MM-DD HH:MM:SS' (specification §5
 * "Date-time inputs are turned into 'YYYY-MM-DD HH:MM:SS'"); a 'T' separator, fractional seconds
 * and a trailing 'Z' are also accepted. Any other zone offset is refused: the console speaks UTC.
 */
const DATE_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z)?$/;

/** A parsed UTC date input: the instant and whether the text carried a time of day. */
export interface UtcDateInput {
  /** The instant (UTC). A date-only text is 00:00:00 of that day. */
  at: Date;
  /** False for 'YYYY-MM-DD' (a whole day), true when a time was given. */
  hasTime: boolean;
}

/**
 * Parses a UTC date or date-time text (see the module doc) → {at, hasTime}, or null when the text
 * does not match or names an impossible date (2026-02-30, 24:00). Never throws.
 */
export function parseUtcDate(text: string): UtcDateInput | null {
  const m = DATE_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const ms = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  // Date.UTC rolls 2026-02-30 over to March: refuse instead of guessing.
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day)
    return null;
  return { at, hasTime: h !== undefined };
}

const DAY_MS = 86_400_000;

/** The first instant a date input may name: 1970-01-01T00:00:00Z. */
export const EARLIEST_INPUT_MS = Date.UTC(1970, 0, 1);
/** The end (exclusive) of what a date input may name: 2101-01-01T00:00:00Z, so 2100 is the last year. */
export const END_OF_INPUT_MS = Date.UTC(2101, 0, 1);

/**
 * Whether an instant (epoch ms) lies in the years every date input is held to, 1970–2100 (UTC).
 * Dates outside them are typing slips, not data, and far ones cannot even be written as PostgreSQL
 * instants ('+010000-01-01T00:00:00.000Z' is refused as a time zone displacement).
 */
export function isSupportedInstant(ms: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_INPUT_MS && ms < END_OF_INPUT_MS;
}

/** The 400 sentence of a date input outside isSupportedInstant's years. */
export const unsupportedDateMessage = (name: string, input: unknown): string =>
  `${name} must be a date from 1970-01-01 to 2100-12-31 UTC (got '${String(input)}')`;

/** A half-open or closed UTC range for SQL: `col >= from` and `col < toExclusive` (either may be absent). */
export interface DateRange {
  from: Date | null;
  /** Exclusive upper bound: a date-only `_to` becomes the next day's 00:00 (the day is inclusive). */
  toExclusive: Date | null;
}

/**
 * The range `col >= from AND col < toExclusive` of a parsed `_from` / `_to` pair (either may be
 * absent). A date-only `to` includes its whole day (next day 00:00 exclusive); a `to` with a time
 * includes that instant (+1 ms).
 */
export function toDateRange(
  from: UtcDateInput | undefined,
  to: UtcDateInput | undefined,
): DateRange {
  return {
    from: from ? from.at : null,
    toExclusive: to ? new Date(to.at.getTime() + (to.hasTime ? 1 : DAY_MS)) : null,
  };
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Normalises an email address (trimmed, lower case) or returns null when it is not a plausible address (≤ 254 chars). */
export function normaliseEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const t = value.trim().toLowerCase();
  if (t.length === 0 || t.length > 254 || !EMAIL_RE.test(t)) return null;
  return t;
}

/** Serialises a database instant to ISO 8601 UTC ('2026-11-20T09:00:00.000Z'), or null. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A sort request: a whitelisted key and a direction. */
export interface SortSpec<K extends string> {
  key: K;
  dir: 'asc' | 'desc';
}
