/**
 * Display formatting rules of specification §5 and §9. Pure and total: every function accepts
 * missing or malformed input and answers a dash rather than throwing.
 */
import { DEFAULT_CURRENCY } from './types';

/** The placeholder shown for any missing value (§2 "a dash if missing"). */
export const DASH = '—';

const pad = (n: number) => String(n).padStart(2, '0');

/** Built en-US number formatters by their options (see {@link numberFormat}). */
const numberFormats = new Map<string, Intl.NumberFormat>();
/** At most this many kept (one per currency × style in practice); the cache restarts beyond it. */
const NUMBER_FORMATS_KEPT = 64;

/**
 * The en-US Intl.NumberFormat for `options`, built once and reused. Building one costs far more
 * than formatting with it, and a 365-day chart's data tables format thousands of figures, so one
 * built per call would dominate the Metrics screen's render time (bench/metrics-paint.ts).
 */
function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    if (numberFormats.size >= NUMBER_FORMATS_KEPT) numberFormats.clear();
    format = new Intl.NumberFormat('en-US', options);
    numberFormats.set(key, format);
  }
  return format;
}

/** Digits with en-US thousands separators: '1234567' → '1,234,567'. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Largest |cents| the Intl-free path takes: every two-decimal amount below it is exact in a double. */
const PLAIN_CENTS_MAX = 1e15;

/**
 * The en-US text of a whole count ('-1,234'), or of a USD amount in integer cents with 0 or 2
 * decimals ('$1,234.56', '-$1,235' — halves away from zero, as Intl), without Intl; null when
 * the input is anything else (another currency, a fraction, -0, a huge figure), for Intl to do.
 *
 * The first Intl number formatter of a page pays for ICU's start-up, and the dashboard's first
 * paint shows exactly these figures, so this path keeps that cost off it. The text is Intl's own:
 * tests/unit/domain/format-plain.test.ts compares the two over random inputs.
 */
function plainFigure(value: number, currency: string | null, fractionDigits: 0 | 2): string | null {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return null;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (currency === null) return sign + groupThousands(String(abs));
  if (currency !== 'USD' || abs > PLAIN_CENTS_MAX) return null;
  const dollars = Math.floor(abs / 100);
  const cents = abs % 100;
  if (fractionDigits === 0)
    return `${sign}$${groupThousands(String(dollars + (cents >= 50 ? 1 : 0)))}`;
  return `${sign}$${groupThousands(String(dollars))}.${pad(cents)}`;
}

/**
 * Parses an instant as UTC. Accepts ISO 8601 ('2026-11-20T09:00:00Z') and the space form
 * 'YYYY-MM-DD HH:MM[:SS]', which has no T and is therefore treated as UTC (§5, CONTRACT.md).
 * A bare 'YYYY-MM-DD' is midnight UTC. Returns null for anything unparseable.
 */
export function parseUtc(value: string | null | undefined): Date | null {
  if (value == null) return null;
  const text = String(value).trim();
  if (!text) return null;
  let normalised = text;
  if (!text.includes('T')) {
    const m = /^(\d{4}-\d{2}-\d{2})(?:[ ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?$/.exec(text);
    if (!m) return null;
    normalised = `${m[1]}T${m[2] ?? '00:00:00'}Z`;
  } else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
    normalised = `${text}Z`;
  }
  const date = new Date(normalised);
  if (Number.isNaN(date.getTime())) return null;
  // JS Date rolls impossible calendar days over (2026-02-30 → 2026-03-02): reject them instead.
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(normalised);
  if (day && !normalised.slice(10).match(/[+-]\d{2}:?\d{2}$/)) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (date.getUTCFullYear() !== y || date.getUTCMonth() + 1 !== m || date.getUTCDate() !== d)
      return null;
  }
  return date;
}

/** 'YYYY-MM-DD HH:MM' in UTC (§5), or a dash when missing/unparseable. */
export function formatUtcDateTime(value: string | null | undefined): string {
  const d = parseUtc(value);
  if (!d) return DASH;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** 'YYYY-MM-DD HH:MM:SS' in UTC: the Logs timestamp (§2 Logs, §5 "logs add seconds"). */
export function formatUtcDateTimeSeconds(value: string | null | undefined): string {
  const d = parseUtc(value);
  if (!d) return DASH;
  return `${formatUtcDateTime(value)}:${pad(d.getUTCSeconds())}`;
}

/**
 * Turns a datetime-local input value ('YYYY-MM-DDTHH:MM' or with seconds) into the wire form
 * 'YYYY-MM-DD HH:MM:SS', adding ':00' seconds when missing (§5). Returns null when malformed.
 */
export function toWireDateTime(localValue: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(localValue.trim());
  if (!m) return null;
  const wire = `${m[1]} ${m[2]}:${m[3]}:${m[4] ?? '00'}`;
  // Out-of-range parts (month 13, 99:99) are malformed, not something to send.
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59 || !parseUtc(wire))
    return null;
  return wire;
}

/**
 * The default date for grant/revoke pickers: tomorrow 09:00 UTC (§9), as a datetime-local
 * value 'YYYY-MM-DDT09:00'. `now` is injectable for tests and stories.
 */
export function defaultActionDateTimeLocal(now: Date = new Date()): string {
  const t = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 9, 0));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T09:00`;
}

/** Safe ISO currency code: uppercase three letters, else the default USD (§1). */
export function normaliseCurrency(code: string | null | undefined): string {
  const c = String(code ?? '')
    .trim()
    .toUpperCase();
  return /^[A-Z]{3}$/.test(c) ? c : DEFAULT_CURRENCY;
}

/**
 * Money as a localised currency string, e.g. formatCurrency(123456, 'USD') → '$1,234.56'.
 * `amountCents` is integer cents; `fractionDigits` 2 by default, 0 for whole-number figures
 * (§9: all-time revenue, Est. Revenue, MRR/ARR on metrics). A dash when the amount is missing.
 */
export function formatCurrency(
  amountCents: number | null | undefined,
  currency: string | null | undefined = DEFAULT_CURRENCY,
  fractionDigits: 0 | 2 = 2,
): string {
  if (amountCents == null || !Number.isFinite(amountCents)) return DASH;
  const code = normaliseCurrency(currency);
  return (
    plainFigure(amountCents, code, fractionDigits) ??
    numberFormat({
      style: 'currency',
      currency: code,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    }).format(amountCents / 100)
  );
}

/**
 * Subscription-screen amount: value/100 with two decimals plus the currency code (§5),
 * e.g. formatAmountWithCode(999, 'eur') → '9.99 EUR'. A dash when missing.
 */
export function formatAmountWithCode(
  amountCents: number | null | undefined,
  currency: string | null | undefined,
): string {
  if (amountCents == null || !Number.isFinite(amountCents)) return DASH;
  return `${(amountCents / 100).toFixed(2)} ${normaliseCurrency(currency)}`;
}

/** Compact k/M money for the affiliate list (§9), e.g. 1234500 cents → '$12.3k', 250000000 → '$2.5M'. */
export function formatCompactCurrency(
  amountCents: number | null | undefined,
  currency = DEFAULT_CURRENCY,
): string {
  if (amountCents == null || !Number.isFinite(amountCents)) return DASH;
  return numberFormat({
    style: 'currency',
    currency: normaliseCurrency(currency),
    notation: 'compact',
    maximumFractionDigits: 1,
  })
    .format(amountCents / 100)
    .replace(/K$/, 'k');
}

/** Whole count with thousands separators; a dash when missing. */
export function formatCount(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  return plainFigure(value, null, 0) ?? numberFormat().format(value);
}

/** A fraction as a percentage with one decimal (§9 churn): 0.0734 → '7.3%'. */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction == null || !Number.isFinite(fraction)) return DASH;
  return `${(fraction * 100).toFixed(1)}%`;
}

/** One decimal (§2 Avg Days Remaining); a dash when missing. */
export function formatOneDecimal(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  return value.toFixed(1);
}

/** Compact k/M count for chart axes (§9 compact format): 950 → '950', 12500 → '12.5k', 2.5e6 → '2.5M'. */
export function formatCompactCount(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return DASH;
  return numberFormat({ notation: 'compact', maximumFractionDigits: 1 })
    .format(value)
    .replace(/K$/, 'k');
}
