import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayName, sortOrdersNewestFirst } from '../../../src/domain/detail';
import { totalPages } from '../../../src/domain/paging';
import { isClickbank } from '../../../src/domain/providers';
import { locationText } from '../../../src/domain/subscription-view';
import type { MarketplaceOrder } from '../../../src/domain/types';

const order = (partial: Partial<MarketplaceOrder>): MarketplaceOrder => ({
  receipt: null,
  sku: null,
  status: null,
  title: null,
  site: null,
  affiliate: null,
  country: null,
  state: null,
  postalCode: null,
  firstName: null,
  lastName: null,
  customerDisplayName: null,
  customerRefundableState: null,
  currency: null,
  amountCents: null,
  rebillAmountCents: null,
  accountAmountCents: null,
  nextPaymentAt: null,
  createdAtProvider: null,
  rawJson: null,
  ...partial,
});

describe('isClickbank (§1: the marketplace provider), one case-insensitive rule', () => {
  it('accepts clickbank in any case and with surrounding spaces', () => {
    for (const value of ['clickbank', 'ClickBank', 'CLICKBANK', ' clickbank ']) expect(isClickbank(value)).toBe(true);
  });

  it('rejects other providers, blanks and missing values', () => {
    for (const value of ['lemonsqueezy', 'click bank', 'clickbank2', '', '  ', null, undefined]) {
      expect(isClickbank(value)).toBe(false);
    }
  });

  it('drives every ClickBank-only rule the same way, whatever the case', () => {
    const latest = order({ customerDisplayName: 'Ana Smith', state: 'CA', country: 'US', postalCode: '94103' });
    for (const provider of ['clickbank', 'ClickBank']) {
      expect(displayName({ name: null, provider }, latest)).toBe('Ana Smith');
      expect(locationText({ provider, city: 'Paris', region: null, country: 'FR' }, latest)).toBe('CA, US, 94103');
    }
    expect(displayName({ name: null, provider: 'lemonsqueezy' }, latest)).toBeNull();
  });
});

describe('totalPages (§2 pager: Page {page} of {totalPages})', () => {
  it('is ceil(total / pageSize), at least 1', () => {
    expect(totalPages(0, 50)).toBe(1);
    expect(totalPages(1, 50)).toBe(1);
    expect(totalPages(50, 50)).toBe(1);
    expect(totalPages(51, 50)).toBe(2);
    expect(totalPages(120, 50)).toBe(3);
  });

  it('never throws and always answers a whole number ≥ 1, whatever it is given', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (total, pageSize) => {
        const pages = totalPages(total, pageSize);
        expect(Number.isInteger(pages) && pages >= 1).toBe(true);
      }),
    );
  });

  it('holds every row of a real list, and no more than one page too many', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.integer({ min: 1, max: 1000 }), (total, pageSize) => {
        const pages = totalPages(total, pageSize);
        expect(pages * pageSize).toBeGreaterThanOrEqual(total);
        if (total > 0) expect((pages - 1) * pageSize).toBeLessThan(total);
      }),
    );
  });
});

describe('sortOrdersNewestFirst (§2 Order details: latest order first)', () => {
  it('sorts by created_at_provider descending, undated orders last in their original order', () => {
    const a = order({ receipt: 'A', createdAtProvider: '2026-01-01T00:00:00Z' });
    const b = order({ receipt: 'B', createdAtProvider: null });
    const c = order({ receipt: 'C', createdAtProvider: '2026-03-01T00:00:00Z' });
    const d = order({ receipt: 'D', createdAtProvider: 'not a date' });
    const input = [a, b, c, d];
    expect(sortOrdersNewestFirst(input).map((o) => o.receipt)).toEqual(['C', 'A', 'B', 'D']);
    expect(input.map((o) => o.receipt)).toEqual(['A', 'B', 'C', 'D']);
  });
});
