import { expect, test } from 'vitest';
import { parseUtc, toWireDateTime, formatCompactCurrency } from '../../../src/domain/format';
test('rejects impossible calendar dates and out-of-range times; compact amounts use k and M (§5, §9)', () => {
  expect(parseUtc('2026-02-30 09:00')).toBeNull();
  expect(parseUtc('2026-02-28 09:00')?.toISOString()).toBe('2026-02-28T09:00:00.000Z');
  expect(parseUtc('2026-11-20T09:00:00+02:00')?.toISOString()).toBe('2026-11-20T07:00:00.000Z');
  expect(parseUtc('2026-11-20T23:00:00-05:00')?.toISOString()).toBe('2026-11-21T04:00:00.000Z');
  expect(toWireDateTime('2026-13-45T99:99')).toBeNull();
  expect(toWireDateTime('2026-11-21T09:00')).toBe('2026-11-21 09:00:00');
  expect(formatCompactCurrency(1234500)).toBe('$12.3k');
  expect(formatCompactCurrency(250000000)).toBe('$2.5M');
});
