/**
 * formatCount and formatCurrency answer whole counts and USD cents without Intl (src/domain/format.ts
 * plainFigure, which keeps Intl's start-up off the dashboard's first paint). Their text must be
 * exactly Intl's en-US text, which these tests compare over random and edge inputs (fast-check,
 * seed printed on failure).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatCurrency } from '../../../src/domain/format';

const intlCount = (value: number) => new Intl.NumberFormat('en-US').format(value);
const intlUsd = (cents: number, digits: 0 | 2) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(cents / 100);

/** Integers of every magnitude: small, around each power of ten, and up to the safe limit. */
const wholeNumbers = fc.oneof(
  fc.integer({ min: -100_000, max: 100_000 }),
  fc
    .integer({ min: 1, max: 15 })
    .chain((power) => fc.integer({ min: -50, max: 50 }).map((offset) => 10 ** power + offset)),
  fc.maxSafeInteger().map((n) => n),
  fc.maxSafeNat().map((n) => -n),
);

describe('Intl-free whole counts and USD amounts (plainFigure)', () => {
  it('formatCount gives Intl’s text for every safe integer', () => {
    fc.assert(
      fc.property(wholeNumbers, (value) => {
        expect(formatCount(value)).toBe(intlCount(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('formatCurrency gives Intl’s USD text with 2 and with 0 decimals (halves away from zero)', () => {
    fc.assert(
      fc.property(wholeNumbers, fc.constantFrom<0 | 2>(0, 2), (cents, digits) => {
        expect(formatCurrency(cents, 'USD', digits)).toBe(intlUsd(cents, digits));
      }),
      { numRuns: 5000 },
    );
  });

  it('edge values: zero, -0, halves, a cent below and above a dollar, the limits', () => {
    for (const cents of [
      0,
      -0,
      1,
      -1,
      49,
      50,
      51,
      -49,
      -50,
      -51,
      99,
      100,
      101,
      149,
      150,
      -150,
      99_999,
      100_000,
      123_456,
      -123_456,
      1e15,
      -1e15,
      1e15 + 1,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
    ]) {
      for (const digits of [0, 2] as const) {
        expect(formatCurrency(cents, 'USD', digits), `${cents} cents, ${digits} decimals`).toBe(
          intlUsd(cents, digits),
        );
      }
      expect(formatCount(cents), `count ${cents}`).toBe(intlCount(cents));
    }
  });

  it('leaves everything else to Intl: fractions, other currencies, lower-case codes', () => {
    expect(formatCount(1234.5678)).toBe('1,234.568');
    expect(formatCurrency(123456.7, 'USD', 2)).toBe(intlUsd(123456.7, 2));
    expect(formatCurrency(123456, 'eur', 2)).toBe('€1,234.56');
    expect(formatCurrency(123456, 'usd', 0)).toBe('$1,235');
    expect(formatCurrency(123456, 'JPY', 2)).toBe(
      new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: 'JPY',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }).format(1234.56),
    );
  });
});
