import fc from 'fast-check';
import MockDate from 'mockdate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DASH,
  defaultActionDateTimeLocal,
  formatAmountWithCode,
  formatCompactCurrency,
  formatCount,
  formatCurrency,
  formatOneDecimal,
  formatPercent,
  formatUtcDateTime,
  formatUtcDateTimeSeconds,
  normaliseCurrency,
  parseUtc,
  toWireDateTime,
} from '../../../src/domain/format';
import {
  isActiveUser,
  logLevelTone,
  mgStatusBadge,
  providerStatusBadge,
} from '../../../src/domain/status';
import { FIXTURE_NOW } from '../../msw/fixtures';

/** The fixed clock shared with the stories and fixtures. */
const NOW = new Date(FIXTURE_NOW);

afterEach(() => MockDate.reset());

describe('parseUtc (§5: no T means UTC)', () => {
  it.each([
    ['2026-11-20T09:00:00Z', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20T09:00:00.000000Z', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20T11:00:00+02:00', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20T09:00:00', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20 09:00', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20 09:00:30', '2026-11-20T09:00:30.000Z'],
    ['  2026-11-20 09:00  ', '2026-11-20T09:00:00.000Z'],
    ['2026-11-20', '2026-11-20T00:00:00.000Z'],
  ])('%s → %s', (input, iso) => {
    expect(parseUtc(input)?.toISOString()).toBe(iso);
  });

  it.each([
    null,
    undefined,
    '',
    '  ',
    'yesterday',
    '2026-11-20 25:00',
    '20/11/2026',
    '2026-11-20T',
  ])('%o → null', (input) => {
    expect(parseUtc(input)).toBeNull();
  });

  it('property: a space-form date reads the same as its ISO UTC form', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2999-12-31T23:59:00Z'),
          noInvalidDate: true,
        }),
        (d) => {
          const iso = d.toISOString();
          const spaced = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
          expect(parseUtc(spaced)?.getTime()).toBe(Math.floor(d.getTime() / 1000) * 1000);
        },
      ),
    );
  });
});

describe('formatting instants (§5)', () => {
  it("'YYYY-MM-DD HH:MM' in UTC, a dash when missing", () => {
    expect(formatUtcDateTime('2026-11-20T09:05:59Z')).toBe('2026-11-20 09:05');
    expect(formatUtcDateTime('2026-11-20 09:05')).toBe('2026-11-20 09:05');
    expect(formatUtcDateTime('2026-11-20T23:30:00-02:00')).toBe('2026-11-21 01:30');
    expect(formatUtcDateTime(null)).toBe(DASH);
    expect(formatUtcDateTime('garbage')).toBe('—');
  });

  it('logs add seconds', () => {
    expect(formatUtcDateTimeSeconds('2026-11-20T09:05:07.900Z')).toBe('2026-11-20 09:05:07');
    expect(formatUtcDateTimeSeconds(undefined)).toBe(DASH);
  });

  it("toWireDateTime adds ':00' seconds when missing", () => {
    expect(toWireDateTime('2026-11-21T09:00')).toBe('2026-11-21 09:00:00');
    expect(toWireDateTime('2026-11-21T09:00:30')).toBe('2026-11-21 09:00:30');
    expect(toWireDateTime(' 2026-11-21 09:00 ')).toBe('2026-11-21 09:00:00');
    expect(toWireDateTime('2026-11-21')).toBeNull();
    expect(toWireDateTime('')).toBeNull();
  });

  it.each([
    ['2026-11-20T12:00:00Z', '2026-11-21T09:00'],
    ['2026-11-20T00:00:00Z', '2026-11-21T09:00'],
    ['2026-11-20T23:59:59Z', '2026-11-21T09:00'],
    ['2026-11-30T10:00:00Z', '2026-12-01T09:00'],
    ['2026-12-31T23:00:00Z', '2027-01-01T09:00'],
    ['2028-02-28T08:00:00Z', '2028-02-29T09:00'],
    ['2027-02-28T08:00:00Z', '2027-03-01T09:00'],
  ])('default action date at %s is tomorrow 09:00 UTC: %s', (now, expected) => {
    expect(defaultActionDateTimeLocal(new Date(now))).toBe(expected);
    MockDate.set(now);
    expect(defaultActionDateTimeLocal()).toBe(expected);
  });

  it('the default action date turns into the wire form', () => {
    expect(toWireDateTime(defaultActionDateTimeLocal(NOW))).toBe('2026-11-21 09:00:00');
  });
});

describe('money (§5, §9)', () => {
  it('subscription amounts: value/100 with two decimals plus the code, a dash when missing', () => {
    expect(formatAmountWithCode(999, 'eur')).toBe('9.99 EUR');
    expect(formatAmountWithCode(123456, null)).toBe('1234.56 USD');
    expect(formatAmountWithCode(0, 'USD')).toBe('0.00 USD');
    expect(formatAmountWithCode(-150, 'usd')).toBe('-1.50 USD');
    expect(formatAmountWithCode(null, 'USD')).toBe(DASH);
    expect(formatAmountWithCode(Number.NaN, 'USD')).toBe(DASH);
  });

  it('currency codes default to USD', () => {
    expect(normaliseCurrency(' gbp ')).toBe('GBP');
    expect(normaliseCurrency('')).toBe('USD');
    expect(normaliseCurrency('dollars')).toBe('USD');
    expect(normaliseCurrency(undefined)).toBe('USD');
  });

  it('dashboard money: 2 decimals; all-time revenue: 0 decimals', () => {
    expect(formatCurrency(1234500, 'USD')).toBe('$12,345.00');
    expect(formatCurrency(98765400, 'USD', 0)).toBe('$987,654');
    expect(formatCurrency(999, 'EUR')).toBe('€9.99');
    expect(formatCurrency(null)).toBe(DASH);
  });

  it('compact k/M amounts, counts, churn and one-decimal figures', () => {
    expect(formatCompactCurrency(1234500)).toBe('$12.3k');
    expect(formatCompactCurrency(250000000)).toBe('$2.5M');
    expect(formatCount(3000)).toBe('3,000');
    expect(formatCount(null)).toBe(DASH);
    expect(formatPercent(0.0734)).toBe('7.3%');
    expect(formatPercent(undefined)).toBe(DASH);
    expect(formatOneDecimal(41.66)).toBe('41.7');
    expect(formatOneDecimal(null)).toBe(DASH);
  });
});

describe('mgStatusBadge (§4)', () => {
  const row = (
    mgStatus: string | null,
    mgStatusLabel: string | null = null,
    expiresAt: string | null = null,
  ) => ({
    mgStatus,
    mgStatusLabel,
    expiresAt,
  });

  it.each([
    [row('cancelled', 'Active'), { text: 'Active', tone: 'success' }],
    [row('active', 'Active until renewal'), { text: 'Active until renewal', tone: 'success' }],
    [
      row('active', 'Active (cancels at period end)'),
      { text: 'Active (cancels at period end)', tone: 'warning' },
    ],
    [
      row('active', 'Active – Cancelled at provider'),
      { text: 'Active – Cancelled at provider', tone: 'warning' },
    ],
    [row('active', 'Expired'), { text: 'Expired', tone: 'danger' }],
    [
      row('active', 'Access expired on renewal'),
      { text: 'Access expired on renewal', tone: 'danger' },
    ],
    [row(null, 'Cancelled'), { text: 'Cancelled', tone: 'danger' }],
    [row('active', 'Paused by operator'), { text: 'Paused by operator', tone: 'neutral' }],
    [row('active', 'Inactive'), { text: 'Inactive', tone: 'neutral' }],
  ])('a label takes precedence: %o', (r, badge) => {
    expect(mgStatusBadge(r, NOW)).toEqual(badge);
  });

  it('the label wins over a scheduled expiry', () => {
    expect(mgStatusBadge(row('active', 'Active', '2026-12-01T09:00:00Z'), NOW)).toEqual({
      text: 'Active',
      tone: 'success',
    });
  });

  it('active with a future expiry → Scheduled (yellow) with the UTC tooltip', () => {
    expect(mgStatusBadge(row('active', null, '2026-12-18T14:05:00Z'), NOW)).toEqual({
      text: 'Scheduled',
      tone: 'warning',
      title: 'Scheduled to expire at 2026-12-18 14:05 (UTC)',
    });
    expect(mgStatusBadge(row('active', '  ', '2026-12-18 14:05:00'), NOW).title).toBe(
      'Scheduled to expire at 2026-12-18 14:05 (UTC)',
    );
  });

  it.each([
    [row('active'), { text: 'Active', tone: 'success' }],
    [row('active', null, '2026-11-20T12:00:00Z'), { text: 'Active', tone: 'success' }],
    [row('active', null, '2026-11-01T09:00:00Z'), { text: 'Active', tone: 'success' }],
    [row('ACTIVE'), { text: 'Active', tone: 'success' }],
    [row('cancelled'), { text: 'Cancelled', tone: 'danger' }],
    [row('cancelled', null, '2026-12-18T14:05:00Z'), { text: 'Cancelled', tone: 'danger' }],
    [row('paused'), { text: DASH, tone: 'neutral' }],
    [row(null), { text: DASH, tone: 'neutral' }],
  ])('without a label: %o', (r, badge) => {
    expect(mgStatusBadge(r, NOW)).toEqual(badge);
  });

  it('uses the current clock by default', () => {
    MockDate.set('2026-12-19T00:00:00Z');
    expect(mgStatusBadge(row('active', null, '2026-12-18T14:05:00Z')).text).toBe('Active');
    MockDate.set('2026-12-18T00:00:00Z');
    expect(mgStatusBadge(row('active', null, '2026-12-18T14:05:00Z')).text).toBe('Scheduled');
  });
});

describe('isActiveUser (§4 page count)', () => {
  it.each([
    [{ mgStatus: 'active', mgStatusLabel: null, expiresAt: null }, true],
    [{ mgStatus: 'active', mgStatusLabel: null, expiresAt: '2026-12-01T00:00:00Z' }, true],
    [
      { mgStatus: 'cancelled', mgStatusLabel: 'Active (cancels at period end)', expiresAt: null },
      true,
    ],
    [{ mgStatus: null, mgStatusLabel: 'active', expiresAt: null }, true],
    [{ mgStatus: 'cancelled', mgStatusLabel: null, expiresAt: '2026-12-01T00:00:00Z' }, false],
    [{ mgStatus: 'cancelled', mgStatusLabel: 'Expired', expiresAt: null }, false],
    [{ mgStatus: null, mgStatusLabel: null, expiresAt: null }, false],
  ])('%o → %s', (r, expected) => {
    expect(isActiveUser(r, NOW)).toBe(expected);
  });
});

describe('providerStatusBadge (§4)', () => {
  it.each([
    ['active', 'success'],
    ['trialing', 'success'],
    ['paused', 'warning'],
    ['past_due', 'warning'],
    ['cancelled', 'danger'],
    ['expired', 'neutral'],
    ['unpaid', 'neutral'],
  ])('%s → %s', (status, tone) => {
    expect(providerStatusBadge(status)).toEqual({ text: status, tone });
  });

  it('a missing status is a grey dash', () => {
    expect(providerStatusBadge(null)).toEqual({ text: DASH, tone: 'neutral' });
    expect(providerStatusBadge('  ')).toEqual({ text: DASH, tone: 'neutral' });
  });
});

describe('logLevelTone (§2 Logs)', () => {
  it.each([
    ['trace', 'neutral'],
    ['debug', 'neutral'],
    ['info', 'info'],
    ['warn', 'warning'],
    ['error', 'danger'],
    ['fatal', 'done'],
    ['INFO', 'info'],
    [null, 'neutral'],
  ])('%s → %s', (level, tone) => {
    expect(logLevelTone(level)).toBe(tone);
  });
});
