/**
 * Parsing of query strings and JSON bodies shared by the list and action routes. Every parser
 * either returns a clean value or throws a 400 ApiError (server/errors.ts) whose message names the
 * parameter and what was expected, so a bad request never reaches the database.
 *
 * Dates are UTC: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM' or 'YYYY-MM-DD HH:MM:SS' (specification §5
 * "Date-time inputs are turned into 'YYYY-MM-DD HH:MM:SS'"); a 'T' separator, fractional seconds
 * and a trailing 'Z' are also accepted. Any other zone offset is refused: the console speaks UTC.
 */
import { badRequest } from '../errors';

/** Query parameters as Hono hands them over (`c.req.query()`). */
export type Query = Record<string, string | undefined>;

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

/** A half-open or closed UTC range for SQL: `col >= from` and `col < toExclusive` (either may be absent). */
export interface DateRange {
  from: Date | null;
  /** Exclusive upper bound: a date-only `_to` becomes the next day's 00:00 (the day is inclusive). */
  toExclusive: Date | null;
}

/** Returns the trimmed value of a query parameter, or undefined when missing or blank (§5: blank = absent). */
export function queryText(q: Query, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

/**
 * Reads `${prefix}_from` / `${prefix}_to` (UTC dates, see module doc) → DateRange. A date-only
 * `_to` includes its whole day; a `_to` with a time includes that instant. Throws 400 when a value
 * is malformed or from is after to.
 */
export function parseDateRange(q: Query, prefix: string): DateRange {
  const fromName = `${prefix}_from`;
  const toName = `${prefix}_to`;
  const fromText = queryText(q, fromName);
  const toText = queryText(q, toName);
  let from: Date | null = null;
  let toExclusive: Date | null = null;
  if (fromText !== undefined) {
    const p = parseUtcDate(fromText);
    if (!p)
      throw badRequest(
        `${fromName} must be a UTC date 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (got '${fromText}')`,
      );
    from = p.at;
  }
  if (toText !== undefined) {
    const p = parseUtcDate(toText);
    if (!p)
      throw badRequest(
        `${toName} must be a UTC date 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (got '${toText}')`,
      );
    toExclusive = new Date(p.at.getTime() + (p.hasTime ? 1 : DAY_MS));
  }
  if (from && toExclusive && from.getTime() >= toExclusive.getTime()) {
    throw badRequest(`${fromName} (${fromText}) is after ${toName} (${toText})`);
  }
  return { from, toExclusive };
}

/**
 * Reads an optional whole number in [min, max] (e.g. page, pageSize) → the number, or `fallback`
 * when absent. Throws 400 naming the parameter and the allowed range otherwise.
 */
export function parseIntParam(
  q: Query,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const t = queryText(q, name);
  if (t === undefined) return fallback;
  if (!/^\d+$/.test(t) || Number(t) < min || Number(t) > max) {
    throw badRequest(`${name} must be a whole number from ${min} to ${max} (got '${t}')`);
  }
  return Number(t);
}

/** Reads an optional positive row id (`row_id`) → the id or undefined; 400 when not a positive whole number. */
export function parseRowId(q: Query, name = 'row_id'): number | undefined {
  const t = queryText(q, name);
  if (t === undefined) return undefined;
  if (!/^\d{1,15}$/.test(t) || Number(t) < 1)
    throw badRequest(`${name} must be a positive whole number (got '${t}')`);
  return Number(t);
}

/** Reads an optional enumerated parameter → one of `allowed`, or undefined; 400 listing the allowed values otherwise. */
export function parseEnum<T extends string>(
  q: Query,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const t = queryText(q, name);
  if (t === undefined) return undefined;
  const v = t.toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) {
    throw badRequest(`${name} must be one of ${allowed.join(', ')} (got '${t}')`);
  }
  return v as T;
}

/** Reads an optional free-text parameter of at most `maxLength` characters; 400 when longer. */
export function parseTextParam(q: Query, name: string, maxLength = 254): string | undefined {
  const t = queryText(q, name);
  if (t === undefined) return undefined;
  if (t.length > maxLength) throw badRequest(`${name} must be at most ${maxLength} characters`);
  return t;
}

/** Escapes LIKE wildcards (% _ \) so user text matches literally inside `LIKE '%' || $n || '%'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
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

/**
 * Parses the Users-style `sort` parameter ('-updated_at' = descending, §7) against `allowed` keys →
 * SortSpec, or `fallback` when absent. Throws 400 naming the allowed keys for anything else.
 */
export function parseSignedSort<K extends string>(
  q: Query,
  name: string,
  allowed: readonly K[],
  fallback: SortSpec<K>,
): SortSpec<K> {
  const t = queryText(q, name);
  if (t === undefined) return fallback;
  const desc = t.startsWith('-');
  const key = (desc ? t.slice(1) : t.startsWith('+') ? t.slice(1) : t).trim();
  if (!(allowed as readonly string[]).includes(key)) {
    throw badRequest(
      `${name} must be one of ${allowed.join(', ')}, optionally prefixed with '-' for descending (got '${t}')`,
    );
  }
  return { key: key as K, dir: desc ? 'desc' : 'asc' };
}

/**
 * Reads a JSON object body from a request → the object. Throws 400 when the body is empty, not
 * JSON, or not an object. `read` is `() => c.req.text()`.
 */
export async function readJsonObject(
  read: () => Promise<string>,
): Promise<Record<string, unknown>> {
  const text = await read();
  if (text.trim() === '') throw badRequest('A JSON object body is required');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
