import { describe, expect, it } from 'vitest';
import { formatCompactCurrency, formatCount, formatCurrency } from '../../../src/domain/format';

describe('reused number formatters (src/domain/format.ts)', () => {
  it('each call answers for its own options, whatever was formatted before', () => {
    expect(formatCurrency(123456, 'USD', 2)).toBe('$1,234.56');
    expect(formatCurrency(123456, 'USD', 0)).toBe('$1,235');
    expect(formatCurrency(123456, 'EUR', 2)).toBe('€1,234.56');
    expect(formatCurrency(123456, 'USD', 2)).toBe('$1,234.56');
    expect(formatCompactCurrency(1234500, 'USD')).toBe('$12.3k');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('stays right past the number of formatters it keeps (many currencies)', () => {
    const codes = Array.from({ length: 150 }, (_, i) =>
      String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26), 81),
    );
    for (const code of codes)
      expect(formatCurrency(100, code, 2)).toBe(
        new Intl.NumberFormat('en-US', {
          style: 'currency',
          currency: code,
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }).format(1),
      );
    expect(formatCurrency(250, 'GBP', 2)).toBe('£2.50');
    expect(formatCount(1000)).toBe('1,000');
  });
});
