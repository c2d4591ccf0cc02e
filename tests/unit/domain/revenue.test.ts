import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { normaliseCohorts, normaliseRevenue } from '../../../src/api/revenue';
import { cohortsCsv, movementsCsv, revenueCsvFileName } from '../../../src/domain/revenue-csv';
import {
  compare,
  DEFAULT_REVENUE_FILTERS,
  netMovement,
  previousRange,
  revenueFiltersFromSearch,
  revenueFiltersToSearch,
  revenueQueryFromFilters,
} from '../../../src/domain/revenue';
import { makeCohortsWire, makeRevenueWire } from '../../msw/fixtures-revenue';

const NOW = new Date('2026-11-20T12:00:00Z');

describe('revenue filters', () => {
  it('round-trip through the URL and fall back to the defaults', () => {
    const f = {
      ...DEFAULT_REVENUE_FILTERS,
      period: 'custom' as const,
      customFrom: '2026-01-01',
      customTo: '2026-02-01',
      provider: 'clickbank' as const,
      plan: 'Pro',
      cadence: 'yearly' as const,
      interval: 'month' as const,
    };
    expect(revenueFiltersFromSearch(new URLSearchParams(revenueFiltersToSearch(f)))).toEqual(f);
    expect(
      revenueFiltersFromSearch(new URLSearchParams('period=x&provider=stripe&cadence=weekly')),
    ).toEqual(DEFAULT_REVENUE_FILTERS);
    expect(revenueFiltersToSearch(DEFAULT_REVENUE_FILTERS)).toEqual({});
  });

  it('resolve presets on the UTC day and keep All time inside the server range', () => {
    expect(
      revenueQueryFromFilters({ ...DEFAULT_REVENUE_FILTERS, period: '7d' }, NOW),
    ).toMatchObject({ from: '2026-11-14', to: '2026-11-20' });
    const all = revenueQueryFromFilters({ ...DEFAULT_REVENUE_FILTERS, period: 'all' }, NOW);
    expect((Date.parse(all.to) - Date.parse(all.from)) / 86_400_000 + 1).toBe(3660);
  });
});

describe('previous period and comparison', () => {
  it('is the equal range just before', () => {
    expect(previousRange({ from: '2026-11-01', to: '2026-11-20' })).toEqual({
      from: '2026-10-12',
      to: '2026-10-31',
    });
    expect(previousRange({ from: '2026-11-20', to: '2026-11-20' })).toEqual({
      from: '2026-11-19',
      to: '2026-11-19',
    });
    expect(previousRange({ from: '', to: '2026-11-20' })).toBeNull();
  });

  it('says up, down or flat with the relative change', () => {
    expect(compare(110, 100)).toEqual({ direction: 'up', change: 0.1 });
    expect(compare(-50, -100)).toEqual({ direction: 'up', change: 0.5 });
    expect(compare(0, 0)).toEqual({ direction: 'flat', change: null });
    expect(compare(5, 0)).toEqual({ direction: 'up', change: null });
    expect(compare(null, 3)).toBeNull();
  });
});

describe('normalising answers', () => {
  it('keeps the identity of the fixture and never throws on arbitrary JSON', () => {
    const r = normaliseRevenue(makeRevenueWire({ months: 24 }));
    expect(r.mrrEndCents - r.mrrStartCents).toBe(
      r.movements.reduce((s, m) => s + netMovement(m), 0),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (raw) => {
        const n = normaliseRevenue(raw);
        expect(Array.isArray(n.movements)).toBe(true);
        expect(Array.isArray(normaliseCohorts(raw))).toBe(true);
      }),
      { seed: 26 },
    );
  });
});

describe('CSV exports', () => {
  it('writes movements in currency units with a net column', () => {
    const r = normaliseRevenue(makeRevenueWire({ months: 2, firstMonth: '2026-10' }));
    const rows = Papa.parse<string[]>(movementsCsv(r.movements, r.currency)).data;
    expect(rows[0]).toEqual([
      'date',
      'currency',
      'new',
      'expansion',
      'reactivation',
      'contraction',
      'churn',
      'net',
    ]);
    expect(rows[1]?.[0]).toBe('2026-10-01');
    expect(rows[1]?.[7]).toBe((netMovement(r.movements[0]!) / 100).toFixed(2));
    expect(movementsCsv([], 'USD')).toBe(
      'date,currency,new,expansion,reactivation,contraction,churn,net',
    );
  });

  it('writes cohorts with one column per month and blanks for months to come', () => {
    const c = normaliseCohorts(makeCohortsWire(3));
    const rows = Papa.parse<string[]>(cohortsCsv(c, 'logo', 'USD')).data;
    expect(rows[0]).toEqual([
      'cohort',
      'customers',
      'currency',
      'mrr',
      'month_0',
      'month_1',
      'month_2',
    ]);
    expect(rows[3]?.slice(5)).toEqual(['', '']);
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    const csv = cohortsCsv(
      [{ cohort: '=HYPERLINK("x")', customers: 1, mrrCents: 100, logo: [100], revenue: [null] }],
      'revenue',
      '+USD',
    );
    const row = Papa.parse<string[]>(csv).data[1];
    expect(row?.[0]).toBe('\'=HYPERLINK("x")');
    expect(row?.[2]).toBe("'+USD");
    expect(row?.[4]).toBe('');
    expect(revenueCsvFileName('cohorts', '2026-01-01', '2026-11-20')).toBe(
      'revenue-cohorts_2026-01-01_2026-11-20.csv',
    );
  });
});
