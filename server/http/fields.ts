/**
 * Zod building blocks for every query string and JSON body the API accepts, so every route
 * validates in one style. Each builder takes the parameter's name so its messages name it, exactly as
 * the console and docs/api.md expect ("pageSize must be a whole number from 1 to 500 (got '0')").
 * Routes compose them into `z.object({...})` schemas and run them through `validate`
 * (server/http/body.ts), which answers a bad value with 400 `{error:'bad_request', message,
 * issues:[{path, message}]}` before anything reaches the database.
 *
 * Query values: a missing or blank value (after trimming) counts as absent (specification §5).
 * Dates are UTC (see parseUtcDate in server/access/params.ts).
 *
 * The boundary rule: every text value, query or body, passes plainText before its own checks, so a
 * NUL (which PostgreSQL cannot hold in text) or another control character is a 400 naming the
 * field, never a database error. Dates outside 1970–2100 are a 400 too (isSupportedInstant).
 */
import { z } from 'zod';
import {
  isSupportedInstant,
  normaliseEmail,
  parseUtcDate,
  toDateRange,
  unsupportedDateMessage,
  type DateRange,
  type SortSpec,
  type UtcDateInput,
} from '../access/params';
import { statusesMatching } from '../vocabulary';

/** The trimmed text of a query value, or undefined when missing or blank (§5: blank = absent). */
function presentText(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return value;
  const t = value.trim();
  return t === '' ? undefined : t;
}

/** C0 control characters and DEL. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f]/;
/** The same, except tab, newline and carriage return. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROLS_BUT_LINE_SPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** An unpaired UTF-16 surrogate (a JSON body's "\ud800" parses to one; jsonb refuses it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** How plainText treats tab, newline and carriage return. */
export interface PlainTextOptions {
  /** Let tab, newline and carriage return through (free text that may span lines); default false. */
  allowLineSpace?: boolean;
}

/**
 * The boundary rule of every text value: a string without NUL or other control characters
 * (tab, newline and carriage return only with `allowLineSpace`) and without unpaired surrogates.
 * Messages: "<name> must be a string", "<name> must not contain control characters", "<name>
 * must be well-formed Unicode text".
 */
export function plainText(name: string, opts: PlainTextOptions = {}) {
  const controls = opts.allowLineSpace ? CONTROLS_BUT_LINE_SPACE : CONTROLS;
  return z
    .string({ error: `${name} must be a string` })
    .refine((t) => !controls.test(t), {
      error: `${name} must not contain control characters`,
      abort: true,
    })
    .refine((t) => !LONE_SURROGATE.test(t), {
      error: `${name} must be well-formed Unicode text`,
      abort: true,
    });
}

/** An optional query text: blank → undefined, else the trimmed string, through plainText, then `inner`. */
function optionalQuery<T extends z.ZodType<unknown, string>>(
  name: string,
  inner: T,
  opts: PlainTextOptions = {},
) {
  return z.preprocess(presentText, plainText(name, opts).pipe(inner).optional());
}

/**
 * A whole number in [min, max] (e.g. page, pageSize) → number, `fallback` when absent.
 * Message: "<name> must be a whole number from <min> to <max> (got '<text>')".
 */
export function intParam(name: string, min: number, max: number, fallback: number) {
  const message = (input: unknown) =>
    `${name} must be a whole number from ${min} to ${max} (got '${String(input)}')`;
  return optionalQuery(
    name,
    z
      .string()
      .regex(/^\d{1,16}$/, { error: (iss) => message(iss.input), abort: true })
      .refine((t) => Number(t) >= min && Number(t) <= max, { error: (iss) => message(iss.input) })
      .transform(Number),
  ).transform((v) => v ?? fallback);
}

/** Largest page number the list endpoints accept. */
export const MAX_PAGE = 1_000_000;

/**
 * The paging fields of a list query: `page` (1..MAX_PAGE, default 1) and `pageSize`
 * (1..maxPageSize, default defaultPageSize), for spreading into z.object (§9 page sizes).
 */
export function pageParams(maxPageSize: number, defaultPageSize: number) {
  return {
    page: intParam('page', 1, MAX_PAGE, 1),
    pageSize: intParam('pageSize', 1, maxPageSize, defaultPageSize),
  };
}

/** An optional positive row id (≤ 15 digits) → number or undefined. Message: "<name> must be a positive whole number (got '…')". */
export function rowIdParam(name = 'row_id') {
  const message = (input: unknown) =>
    `${name} must be a positive whole number (got '${String(input)}')`;
  return optionalQuery(
    name,
    z
      .string()
      .regex(/^\d{1,15}$/, { error: (iss) => message(iss.input), abort: true })
      .refine((t) => Number(t) >= 1, { error: (iss) => message(iss.input) })
      .transform(Number),
  );
}

/**
 * An optional value of `allowed` (compared in lower case) → the value or undefined.
 * Message: "<name> must be one of a, b, c (got '…')".
 */
export function enumParam<const T extends readonly [string, ...string[]]>(
  name: string,
  allowed: T,
) {
  return optionalQuery(
    name,
    z
      .string()
      .transform((t) => t.toLowerCase())
      .pipe(
        z.enum(allowed, {
          error: (iss) =>
            `${name} must be one of ${allowed.join(', ')} (got '${String(iss.input)}')`,
        }),
      ),
  );
}

/** An optional free text of at most `maxLength` characters (plainText) → the trimmed text or undefined. */
export function textParam(name: string, maxLength = 254, opts: PlainTextOptions = {}) {
  return optionalQuery(
    name,
    z.string().max(maxLength, { error: `${name} must be at most ${maxLength} characters` }),
    opts,
  );
}

/**
 * An optional provider-status filter word (letters and underscores, ≤ 32) → the stored status
 * values it matches (vocabulary.statusesMatching: 'trialing' → ['trialing', 'on_trial']) or undefined.
 */
export function providerStatusParam(name: string) {
  return optionalQuery(
    name,
    z
      .string()
      .transform((t) => t.toLowerCase())
      .pipe(
        z.string().regex(/^[a-z_]{1,32}$/, {
          error: (iss) =>
            `${name} must be a status word such as active, trialing, paused, past_due or cancelled (got '${String(iss.input)}')`,
        }),
      )
      .transform(statusesMatching),
  );
}

/** Message of a malformed UTC date query value. */
const dateMessage = (name: string, input: unknown) =>
  `${name} must be a UTC date 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (got '${String(input)}')`;

/** A parsed date query value: the instant, whether it carried a time, and the text as given. */
export interface UtcDateParam extends UtcDateInput {
  text: string;
}

/** An optional UTC date or date-time query value from 1970 to 2100 → UtcDateParam or undefined. */
export function utcDateParam(name: string) {
  return optionalQuery(
    name,
    z.string().transform((t, ctx): UtcDateParam => {
      const parsed = parseUtcDate(t);
      if (parsed === null) {
        ctx.addIssue({ code: 'custom', message: dateMessage(name, t), input: t });
        return z.NEVER;
      }
      if (!isSupportedInstant(parsed.at.getTime())) {
        ctx.addIssue({ code: 'custom', message: unsupportedDateMessage(name, t), input: t });
        return z.NEVER;
      }
      return { ...parsed, text: t };
    }),
  );
}

/** The `<prefix>_from` / `<prefix>_to` shape of one date range filter. */
export type DateRangeShape<P extends string> = {
  [K in `${P}_from` | `${P}_to`]: ReturnType<typeof utcDateParam>;
};

/** The two fields of the date range filter `prefix` (`<prefix>_from`, `<prefix>_to`), for spreading into z.object. */
export function dateRangeParams<const P extends string>(prefix: P): DateRangeShape<P> {
  return {
    [`${prefix}_from`]: utcDateParam(`${prefix}_from`),
    [`${prefix}_to`]: utcDateParam(`${prefix}_to`),
  } as DateRangeShape<P>;
}

/**
 * Refinement for z.object(...).superRefine: adds "<p>_from (…) is after <p>_to (…)" for each
 * prefix whose range holds no instant (a date-only `_to` includes its whole day).
 */
export function checkDateRanges(prefixes: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    for (const p of prefixes) {
      const from = value[`${p}_from`] as UtcDateParam | undefined;
      const to = value[`${p}_to`] as UtcDateParam | undefined;
      const range = toDateRange(from, to);
      if (
        from &&
        to &&
        range.from &&
        range.toExclusive &&
        range.from.getTime() >= range.toExclusive.getTime()
      ) {
        ctx.addIssue({
          code: 'custom',
          path: [`${p}_from`],
          message: `${p}_from (${from.text}) is after ${p}_to (${to.text})`,
          input: from.text,
        });
      }
    }
  };
}

/**
 * True when every parameter set (not undefined) in the parsed query `value` is in one of the
 * `allowed` sets, e.g. a list's paging and sort parameters and the filters its sort index carries.
 */
export function onlyParams(
  value: Record<string, unknown>,
  ...allowed: ReadonlySet<string>[]
): boolean {
  return Object.entries(value).every(([k, x]) => x === undefined || allowed.some((a) => a.has(k)));
}

/** The DateRange of prefix `p` in a parsed query (fields from dateRangeParams). */
export function rangeOf(value: Record<string, unknown>, p: string): DateRange {
  return toDateRange(
    value[`${p}_from`] as UtcDateInput | undefined,
    value[`${p}_to`] as UtcDateInput | undefined,
  );
}

/**
 * The Users-style signed sort ('-updated_at' = descending, '+email' or 'email' = ascending, §7)
 * against `allowed` keys → SortSpec, `fallback` when absent.
 */
export function signedSortParam<const K extends string>(
  name: string,
  allowed: readonly K[],
  fallback: SortSpec<K>,
) {
  return optionalQuery(
    name,
    z.string().transform((t, ctx): SortSpec<K> => {
      const desc = t.startsWith('-');
      const key = (desc || t.startsWith('+') ? t.slice(1) : t).trim();
      if (!(allowed as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: 'custom',
          input: t,
          message: `${name} must be one of ${allowed.join(', ')}, optionally prefixed with '-' for descending (got '${t}')`,
        });
        return z.NEVER;
      }
      return { key: key as K, dir: desc ? 'desc' : 'asc' };
    }),
  ).transform((v) => v ?? fallback);
}

/** Message of a required field: "<name> is required" plus an optional hint. */
const required = (name: string, hint = '') => `${name} is required${hint}`;

/**
 * A required email address in a JSON body → trimmed lower-case address (≤ 254 characters).
 * Messages: "email is required", "email must be a string", "'<text>' is not an email address".
 */
export function emailField(name = 'email') {
  return z
    .unknown()
    .refine((v) => v !== undefined && v !== null && v !== '', {
      error: required(name),
      abort: true,
    })
    .pipe(plainText(name))
    .transform((v, ctx) => {
      const email = normaliseEmail(v);
      if (email === null) {
        ctx.addIssue({ code: 'custom', message: `'${v}' is not an email address`, input: v });
        return z.NEVER;
      }
      return email;
    });
}

/**
 * An optional email address in a query → trimmed lower-case address or undefined.
 * Message: "<name> must be an email address (got '…')".
 */
export function emailParam(name = 'email') {
  return optionalQuery(
    name,
    z.string().transform((t, ctx) => {
      const email = normaliseEmail(t);
      if (email === null) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an email address (got '${t}')`,
          input: t,
        });
        return z.NEVER;
      }
      return email;
    }),
  );
}

/**
 * A required UTC date-time in a JSON body ('YYYY-MM-DD HH:MM:SS', §5) from 1970 to 2100 → Date.
 * Messages: "<name> is required (UTC …)", "<name> must be a string (UTC …)", "<name> must not
 * contain control characters", "<name> must be a UTC date-time … (got '…')", "<name> must be a
 * date from 1970-01-01 to 2100-12-31 UTC (got '…')".
 */
export function dateTimeField(name: string) {
  const hint = ` (UTC 'YYYY-MM-DD HH:MM:SS')`;
  return z
    .unknown()
    .refine((v) => v !== undefined && v !== null && v !== '', {
      error: required(name, hint),
      abort: true,
    })
    .pipe(z.string({ error: `${name} must be a string${hint}` }))
    .pipe(plainText(name))
    .transform((v, ctx): Date => {
      const parsed = parseUtcDate(v);
      if (parsed === null) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a UTC date-time 'YYYY-MM-DD HH:MM:SS' (got '${v}')`,
          input: v,
        });
        return z.NEVER;
      }
      if (!isSupportedInstant(parsed.at.getTime())) {
        ctx.addIssue({ code: 'custom', message: unsupportedDateMessage(name, v), input: v });
        return z.NEVER;
      }
      return parsed.at;
    });
}

/**
 * An optional, lenient choice: blank, 'all' and 'any' mean no filter (undefined); anything else,
 * compared in lower case, must be one of `allowed`. Message: "<name> must be one of a, b (got '…')".
 */
export function choiceParam<const T extends readonly [string, ...string[]]>(
  name: string,
  allowed: T,
) {
  return z.preprocess(
    (value) => {
      const t = presentText(value);
      if (typeof t !== 'string') return t;
      const lower = t.toLowerCase();
      return lower === 'all' || lower === 'any' ? undefined : lower;
    },
    plainText(name)
      .pipe(
        z.enum(allowed, {
          error: (iss) =>
            `${name} must be one of ${allowed.join(', ')} (got '${String(iss.input)}')`,
        }),
      )
      .optional(),
  );
}
