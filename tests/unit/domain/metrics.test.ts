import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_SERIES_NAMES,
  choosePeriod,
  DEFAULT_METRICS_FILTERS,
  PERIOD_PRESETS,
  isIgnoredSeriesKey,
  metricsFiltersFromSearch,
  metricsFiltersToSearch,
  metricsIsrSummaryRange,
  metricsQueryFromFilters,
  normaliseMetricsOverview,
  normaliseProviderName,
  orderProviders,
  periodRange,
  sumSeriesRow,
  type MetricsFilters,
} from '../../../src/domain/metrics';

const NOW = new Date('2026-11-20T12:00:00Z');

describe('§4 period presets', () => {
  it('has the 14 presets in §2 order', () => {
    expect(PERIOD_PRESETS).toEqual([
      'today',
      'yesterday',
      '7d',
      '14d',
      '28d',
      '30d',
      '60d',
      '90d',
      '180d',
      '270d',
      'ytd',
      'last_year',
      'all',
      'custom',
    ]);
  });

  it.each([
    ['today', '2026-11-20', '2026-11-20'],
    ['yesterday', '2026-11-19', '2026-11-19'],
    ['7d', '2026-11-14', '2026-11-20'],
    ['14d', '2026-11-07', '2026-11-20'],
    ['28d', '2026-10-24', '2026-11-20'],
    ['30d', '2026-10-22', '2026-11-20'],
    ['60d', '2026-09-22', '2026-11-20'],
    ['90d', '2026-08-23', '2026-11-20'],
    ['180d', '2026-05-25', '2026-11-20'],
    ['270d', '2026-02-24', '2026-11-20'],
    ['ytd', '2026-01-01', '2026-11-20'],
    ['last_year', '2025-01-01', '2025-12-31'],
    ['all', '', '2026-11-20'],
  ] as const)('%s → %s .. %s', (preset, from, to) => {
    expect(periodRange(preset, NOW)).toEqual({ from, to });
  });

  it('custom keeps the manual dates (invalid ones dropped)', () => {
    expect(periodRange('custom', NOW, { from: '2026-01-05', to: '2026-02-01' })).toEqual({
      from: '2026-01-05',
      to: '2026-02-01',
    });
    expect(periodRange('custom', NOW, { from: '2026-02-30', to: 'x' })).toEqual({
      from: '',
      to: '',
    });
  });

  it('uses the UTC day, not the local one, across midnight and year ends', () => {
    expect(periodRange('today', new Date('2027-01-01T00:00:00Z'))).toEqual({
      from: '2027-01-01',
      to: '2027-01-01',
    });
    expect(periodRange('yesterday', new Date('2027-01-01T00:30:00Z'))).toEqual({
      from: '2026-12-31',
      to: '2026-12-31',
    });
    expect(periodRange('7d', new Date('2024-03-02T23:59:59Z'))).toEqual({
      from: '2024-02-25',
      to: '2024-03-02',
    });
  });

  it('property: a rolling preset spans exactly N days ending today', () => {
    const days = {
      '7d': 7,
      '14d': 14,
      '28d': 28,
      '30d': 30,
      '60d': 60,
      '90d': 90,
      '180d': 180,
      '270d': 270,
    } as const;
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2400-01-01'), noInvalidDate: true }),
        fc.constantFrom(...(Object.keys(days) as (keyof typeof days)[])),
        (now, preset) => {
          const { from, to } = periodRange(preset, now);
          expect(to).toBe(now.toISOString().slice(0, 10));
          const span =
            (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
          expect(span).toBe(days[preset]);
        },
      ),
    );
  });
});

describe('§4 choosing a period', () => {
  const shown = { from: '2026-10-24', to: '2026-11-20' };

  it('custom keeps the range on screen as its manual dates', () => {
    expect(choosePeriod(DEFAULT_METRICS_FILTERS, 'custom', shown)).toEqual({
      ...DEFAULT_METRICS_FILTERS,
      period: 'custom',
      customFrom: '2026-10-24',
      customTo: '2026-11-20',
    });
  });

  it('custom from all time keeps the open start', () => {
    const all = { ...DEFAULT_METRICS_FILTERS, period: 'all' as const };
    expect(choosePeriod(all, 'custom', { from: '', to: '2026-11-20' })).toMatchObject({
      customFrom: '',
      customTo: '2026-11-20',
    });
  });

  it('a preset only changes the period; custom again keeps the manual dates', () => {
    const custom: MetricsFilters = {
      ...DEFAULT_METRICS_FILTERS,
      period: 'custom',
      customFrom: '2026-01-01',
      customTo: '2026-01-31',
    };
    expect(choosePeriod(DEFAULT_METRICS_FILTERS, '90d', shown)).toEqual({
      ...DEFAULT_METRICS_FILTERS,
      period: '90d',
    });
    expect(choosePeriod(custom, 'custom', shown)).toEqual(custom);
  });

  it('property: custom resolves to the range that was on screen', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2400-01-01'), noInvalidDate: true }),
        fc.constantFrom(...PERIOD_PRESETS.filter((p) => p !== 'custom')),
        (now, preset) => {
          const filters = { ...DEFAULT_METRICS_FILTERS, period: preset };
          const before = periodRange(preset, now);
          const after = choosePeriod(filters, 'custom', before);
          expect(
            periodRange('custom', now, { from: after.customFrom, to: after.customTo }),
          ).toEqual(before);
          const url = metricsFiltersFromSearch(new URLSearchParams(metricsFiltersToSearch(after)));
          expect(metricsQueryFromFilters(url, now)).toMatchObject(before);
        },
      ),
    );
  });
});

describe('metrics filters in the URL', () => {
  it('round-trips, omitting defaults', () => {
    expect(metricsFiltersToSearch(DEFAULT_METRICS_FILTERS)).toEqual({});
    const f: MetricsFilters = {
      ...DEFAULT_METRICS_FILTERS,
      period: 'custom',
      customFrom: '2026-01-01',
      customTo: '2026-03-31',
      provider: 'clickbank',
      status: 'active',
      type: 'renewal',
      plan: 'gold',
      source: 'ads',
      barMode: 'grouped',
    };
    const search = new URLSearchParams(metricsFiltersToSearch(f));
    expect(metricsFiltersFromSearch(search)).toEqual(f);
  });

  it('ignores junk', () => {
    const f = metricsFiltersFromSearch(
      new URLSearchParams('period=5y&provider=paypal&status=x&bars=pie&from=2026-01-01'),
    );
    expect(f).toEqual(DEFAULT_METRICS_FILTERS);
  });

  it('builds the query: range from the preset, text trimmed', () => {
    expect(
      metricsQueryFromFilters(
        { ...DEFAULT_METRICS_FILTERS, plan: '  gold ', status: 'cancelled' },
        NOW,
      ),
    ).toEqual({
      from: '2026-10-24',
      to: '2026-11-20',
      provider: '',
      status: 'cancelled',
      type: '',
      plan: 'gold',
      source: '',
    });
  });

  it('ISR summary range: 00:00:00 and 23:59:59 added (§5)', () => {
    expect(metricsIsrSummaryRange({ from: '2026-10-24', to: '2026-11-20' })).toEqual({
      from: '2026-10-24 00:00:00',
      to: '2026-11-20 23:59:59',
    });
    expect(metricsIsrSummaryRange({ from: '', to: '2026-11-20' })).toEqual({
      from: '',
      to: '2026-11-20 23:59:59',
    });
  });
});

describe('§5 provider names', () => {
  it.each([
    ['cb', 'clickbank'],
    ['CB', 'clickbank'],
    ['ClickBank', 'clickbank'],
    ['click_bank', 'clickbank'],
    ['ls', 'lemonsqueezy'],
    ['LS', 'lemonsqueezy'],
    ['lemonsqueezy', 'lemonsqueezy'],
    ['Lemon Squeezy', 'lemonsqueezy'],
    ['lemon_squeezy', 'lemonsqueezy'],
    ['lemonsquezy', 'lemonsqueezy'],
    ['lemonsqeezy', 'lemonsqueezy'],
    ['lemon', 'lemonsqueezy'],
    ['Stripe-2', 'stripe'],
    ['PayPal', 'paypal'],
    ['', 'unknown'],
    ['   ', 'unknown'],
    ['123', 'unknown'],
  ])('%j → %s', (raw, expected) => {
    expect(normaliseProviderName(raw)).toBe(expected);
  });

  it('non-strings are unknown', () => {
    expect(normaliseProviderName(null)).toBe('unknown');
    expect(normaliseProviderName(7)).toBe('unknown');
    expect(normaliseProviderName({})).toBe('unknown');
  });

  it('property: the result is known, unknown, or the input letters lowercased', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const out = normaliseProviderName(raw);
        const letters = raw.toLowerCase().replace(/[^a-z]/g, '');
        expect(out).toMatch(/^[a-z]+$/);
        expect(['clickbank', 'lemonsqueezy', 'unknown', letters]).toContain(out);
        if (!letters) expect(out).toBe('unknown');
        expect(normaliseProviderName(out)).toBe(out); // idempotent
      }),
    );
  });

  it('orders known providers first, unknown last', () => {
    expect(orderProviders(['unknown', 'zeta', 'clickbank', 'alpha', 'lemonsqueezy'])).toEqual([
      'lemonsqueezy',
      'clickbank',
      'alpha',
      'zeta',
      'unknown',
    ]);
  });
});

describe('§5 series-row summing', () => {
  it('ignores date, total*, *_total and *sum* keys', () => {
    for (const key of [
      'date',
      'total',
      'total_cents',
      'totalCount',
      'grand_total',
      'sum',
      'checksum',
      'Sum_All',
    ]) {
      expect(isIgnoredSeriesKey(key)).toBe(true);
    }
    for (const key of ['clickbank', 'ls', 'subtotally'])
      expect(isIgnoredSeriesKey(key)).toBe(false);
    expect(
      sumSeriesRow({
        date: '2026-11-20',
        clickbank: 3,
        ls: 2,
        total_cents: 999,
        grand_total: 1,
        checksum: 4,
        totalX: 7,
      }),
    ).toEqual({ date: '2026-11-20', values: { clickbank: 3, lemonsqueezy: 2 }, total: 999 });
  });

  it('computes the total when the row has none; sums aliases of one provider', () => {
    expect(
      sumSeriesRow({ date: '2026-11-20', cb: 2, clickbank: '3', lemonsqueezy: 4, note: 'x' }),
    ).toEqual({
      date: '2026-11-20',
      values: { clickbank: 5, lemonsqueezy: 4 },
      total: 9,
    });
  });

  it('sums numbers nested in objects per provider', () => {
    expect(
      sumSeriesRow({
        date: '2026-11-20',
        clickbank: { new: 2, renewals: 3, total: 99 },
        ls: { a: { b: 1 }, c: [1, 2] },
      }),
    ).toEqual({ date: '2026-11-20', values: { clickbank: 5, lemonsqueezy: 4 }, total: 9 });
  });

  it('keeps a row total of 0 rather than recomputing', () => {
    expect(sumSeriesRow({ date: 'd', clickbank: 3, total: 0 }).total).toBe(0);
  });

  it('scales a currency-unit row to cents', () => {
    expect(sumSeriesRow({ date: '2026-11-20', clickbank: 12.34, total: 12.34 }, 100)).toEqual({
      date: '2026-11-20',
      values: { clickbank: 1234 },
      total: 1234,
    });
  });

  it('property: sums do not depend on key order', () => {
    const key = fc.oneof(
      fc.constantFrom(
        'cb',
        'clickbank',
        'ls',
        'lemonsqueezy',
        'Lemon Squeezy',
        'other',
        'date',
        'total',
        'x_sum',
      ),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
      fc.integer(),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.double({ noNaN: true, min: -1e3, max: 1e3 }), {
        maxKeys: 3,
      }),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 10 }),
        fc.integer(),
        (entries, seed) => {
          const shuffled = [...entries].sort(
            (a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7),
          );
          const a = sumSeriesRow(Object.fromEntries(entries));
          const b = sumSeriesRow(Object.fromEntries(shuffled.reverse()));
          expect(b).toEqual(a);
        },
      ),
    );
  });

  it('property: without its own total, the total is the sum of the provider values', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 8 }), fc.integer({ min: -1e6, max: 1e6 })),
        (bag) => {
          const row = sumSeriesRow({ ...bag, date: '2026-11-20' });
          const hasOwnTotal = 'total' in bag || 'total_cents' in bag;
          if (!hasOwnTotal)
            expect(row.total).toBe(Object.values(row.values).reduce((s, v) => s + v, 0));
        },
      ),
    );
  });
});

describe('§3 Metrics response', () => {
  const base = {
    range: { from: '2026-10-24', to: '2026-11-20' },
    totals: {
      totalActive: 812,
      totalNewInRange: 96,
      totalRenewalsInRange: 240,
      totalCancellationsInRange: 31,
      churnRate: 0.0381,
      estimatedRevenueCents: 1612345,
    },
    pies: {
      activeByProvider: [
        { provider: 'lemonsqueezy', cnt: 500 },
        { provider: 'LS', cnt: 12 },
        { provider: 'cb', cnt: 300 },
        { provider: '', cnt: 2 },
      ],
      activeByPlan: [
        { plan: 'monthly', cnt: 640 },
        { plan: ' ', cnt: '5' },
      ],
    },
  };

  it('reads byProviderDaily and its alias dailyByProvider alike', () => {
    const row = { date: '2026-11-20', lemonsqueezy: 2, cb: 1 };
    const a = normaliseMetricsOverview({ ...base, series: { byProviderDaily: [row] } });
    const b = normaliseMetricsOverview({ ...base, series: { dailyByProvider: [row] } });
    expect(a.byProviderDaily).toEqual([
      { date: '2026-11-20', values: { lemonsqueezy: 2, clickbank: 1 }, total: 3 },
    ]);
    expect(b.byProviderDaily).toEqual(a.byProviderDaily);
    expect(a.providers).toEqual(['lemonsqueezy', 'clickbank']);
  });

  it.each(AMOUNT_SERIES_NAMES)('accepts the amount series %s and tracks cents', (name) => {
    const m = normaliseMetricsOverview({
      ...base,
      series: { [name]: [{ date: '2026-11-20', clickbank: 47 }] },
    });
    expect(m.amountSeries?.name).toBe(name);
    const inCents = name === 'byProviderDailyAmountCents';
    expect(m.amountSeries?.sentInCents).toBe(inCents);
    expect(m.amountSeries?.rows[0]?.values.clickbank).toBe(inCents ? 47 : 4700);
  });

  it('a non-cents name whose rows carry total_cents is taken as cents', () => {
    const m = normaliseMetricsOverview({
      series: {
        dailyAmountByProvider: [{ date: '2026-11-20', clickbank: 4700, total_cents: 4700 }],
      },
    });
    expect(m.amountSeries?.sentInCents).toBe(true);
    expect(m.amountSeries?.rows[0]).toEqual({
      date: '2026-11-20',
      values: { clickbank: 4700 },
      total: 4700,
    });
  });

  it('no amount series → null (the §2 message)', () => {
    expect(
      normaliseMetricsOverview({ ...base, series: { lineDaily: [] } }).amountSeries,
    ).toBeNull();
    expect(
      normaliseMetricsOverview({ ...base, series: { byProviderDailyAmount: 'nope' } }).amountSeries,
    ).toBeNull();
  });

  it('normalises the pies like the series: names merged, blanks unknown, largest first', () => {
    const m = normaliseMetricsOverview({ ...base, series: {} });
    expect(m.pies.activeByProvider).toEqual([
      { name: 'lemonsqueezy', cnt: 512 },
      { name: 'clickbank', cnt: 300 },
      { name: 'unknown', cnt: 2 },
    ]);
    expect(m.pies.activeByPlan).toEqual([
      { name: 'monthly', cnt: 640 },
      { name: 'unknown', cnt: 5 },
    ]);
    expect(m.totals).toEqual(base.totals);
    expect(m.range).toEqual({ from: '2026-10-24', to: '2026-11-20' });
  });

  it('reads lineDaily rows, missing figures as 0', () => {
    const m = normaliseMetricsOverview({
      series: { lineDaily: [{ date: '2026-11-20', new: '3', renewals: 11 }, 5, null] },
    });
    expect(m.lineDaily).toEqual([{ date: '2026-11-20', new: 3, renewals: 11, cancellations: 0 }]);
  });

  it('property: never throws on arbitrary JSON, and answers a well-formed overview', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const shaped = fc.record({
      range: json,
      totals: fc.dictionary(
        fc.constantFrom('totalActive', 'churnRate', 'estimatedRevenueCents'),
        json,
      ),
      series: fc.dictionary(
        fc.constantFrom('lineDaily', 'byProviderDaily', 'dailyByProvider', ...AMOUNT_SERIES_NAMES),
        fc.array(fc.oneof(json, fc.dictionary(fc.string({ maxLength: 6 }), json)), {
          maxLength: 4,
        }),
      ),
      pies: fc.dictionary(
        fc.constantFrom('activeByProvider', 'activeByPlan'),
        fc.array(json, { maxLength: 4 }),
      ),
    });
    fc.assert(
      fc.property(fc.oneof(json, shaped), (raw) => {
        const m = normaliseMetricsOverview(raw);
        expect(Array.isArray(m.lineDaily)).toBe(true);
        for (const row of [...m.byProviderDaily, ...(m.amountSeries?.rows ?? [])]) {
          expect(typeof row.date).toBe('string');
          expect(Number.isNaN(row.total)).toBe(false);
          for (const provider of Object.keys(row.values)) expect(provider).toMatch(/^[a-z]+$/);
        }
        for (const slice of m.pies.activeByProvider) {
          expect(slice.name).toMatch(/^[a-z]+$/);
          expect(slice.cnt).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('drops a currency figure too large to scale to cents instead of summing it to NaN', () => {
    const row = sumSeriesRow(
      { date: '2026-11-20', '': -1.797693134862316e306, a: 1.797693134862316e306 },
      100,
    );
    expect(row.values).toEqual({});
    expect(row.total).toBe(0);
  });

  it('property: unknown providers survive as unknown or their letters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), (name, cnt) => {
        fc.pre(!['date', 'day'].includes(name.toLowerCase()) && !isIgnoredSeriesKey(name));
        const m = normaliseMetricsOverview({
          series: { byProviderDaily: [{ date: '2026-11-20', [name]: cnt }] },
          pies: { activeByProvider: [{ provider: name, cnt }] },
        });
        const expected = normaliseProviderName(name);
        expect(m.byProviderDaily[0]?.values).toEqual({ [expected]: cnt });
        expect(m.pies.activeByProvider).toEqual([{ name: expected, cnt }]);
        const letters = name.toLowerCase().replace(/[^a-z]/g, '');
        expect(['unknown', 'clickbank', 'lemonsqueezy', letters]).toContain(expected);
      }),
    );
  });
});
