import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  STATS_ALIASES,
  moneyToCents,
  normaliseAdminStats,
  normaliseStats,
  readNumber,
} from '../../../src/domain/stats';
import type { DashboardStats } from '../../../src/domain/types';
import { ADMIN_STATUS_WIRE, STATS_ALIASED_WIRE, STATS_WIRE } from '../../msw/fixtures';

const ZERO: DashboardStats = {
  currency: 'USD',
  mrrCents: 0,
  arrCents: 0,
  activeTotal: 0,
  activeMonthly: 0,
  activeYearly: 0,
  scheduledCancellations: 0,
  avgDaysRemaining: null,
  newToday: 0,
  renewalsToday: 0,
  cancellationsToday: 0,
  totalSubscribers: 0,
  totalRevenueCents: 0,
};

/** The normalised stats written back in the reference server's spelling. */
function toWire(s: DashboardStats) {
  return {
    currency: s.currency,
    mrr_cents: s.mrrCents,
    arr_cents: s.arrCents,
    activeSubscribers: s.activeTotal,
    activeMonthly: s.activeMonthly,
    activeYearly: s.activeYearly,
    scheduledCancellations: s.scheduledCancellations,
    avgDaysRemaining: s.avgDaysRemaining,
    newToday: s.newToday,
    renewalsToday: s.renewalsToday,
    cancellationsToday: s.cancellationsToday,
    totalSubscribers: s.totalSubscribers,
    totalRevenueCents: s.totalRevenueCents,
  };
}

describe('normaliseStats: the §5 money rule', () => {
  it.each<[Record<string, unknown>, number, string]>([
    [{ mrr_cents: 500 }, 500, 'a cents-named field is cents'],
    [{ mrr: 123456 }, 123456, 'whole and ≥ 1000 outside a cents field: cents'],
    [{ mrr: 1000 }, 1000, 'exactly 1000 is cents'],
    [{ mrr: -2500 }, -2500, 'absolute value counts'],
    [{ mrr: 999 }, 99900, 'whole but < 1000: units'],
    [{ mrr: 500 }, 50000, 'whole but < 1000: units'],
    [{ mrr: 12.5 }, 1250, 'not whole: units'],
    [{ mrr: 1000.5 }, 100050, 'not whole even when ≥ 1000: units'],
    [{ mrr: '123456' }, 123456, 'numeric string'],
    [{ mrr: ' 12.5 ' }, 1250, 'numeric string with spaces'],
    [{ mrr_cents: 99.6 }, 100, 'cents are rounded to whole cents'],
    [{ mrr_cents: 500, mrr: 7 }, 500, 'the cents-named spelling wins'],
    [{ mrr: 'abc', mrr_cents: null }, 0, 'junk reads as missing'],
  ])('%o → %i cents (%s)', (raw, expected) => {
    expect(normaliseStats(raw).mrrCents).toBe(expected);
  });

  it('applies the same rule to ARR and total revenue', () => {
    expect(normaliseStats({ arr: 500 }).arrCents).toBe(50000);
    expect(normaliseStats({ arr_cents: 500 }).arrCents).toBe(500);
    expect(normaliseStats({ totalRevenue: 5000 }).totalRevenueCents).toBe(5000);
    expect(normaliseStats({ total_revenue: 50 }).totalRevenueCents).toBe(5000);
    expect(normaliseStats({ total_revenue_cents: 50 }).totalRevenueCents).toBe(50);
    expect(normaliseStats({ totalRevenueCents: '98765400' }).totalRevenueCents).toBe(98765400);
  });

  it('moneyToCents states the rule directly', () => {
    expect(moneyToCents('mrr', 1234)).toBe(1234);
    expect(moneyToCents('mrr', 12.34)).toBe(1234);
    expect(moneyToCents('revenueCents', 12)).toBe(12);
    expect(moneyToCents('mrr', 1e308)).toBe(1e308);
    // 12 × MRR would overflow to Infinity: the shape stays finite.
    expect(normaliseStats({ mrr_cents: 1e308 }).arrCents).toBe(0);
  });
});

describe('normaliseStats: fields and fall-backs (§3)', () => {
  it('reads the reference answer exactly', () => {
    expect(normaliseStats(STATS_WIRE)).toEqual({
      currency: 'USD',
      mrrCents: 1234500,
      arrCents: 14814000,
      activeTotal: 812,
      activeMonthly: 640,
      activeYearly: 172,
      scheduledCancellations: 37,
      avgDaysRemaining: 41.7,
      newToday: 3,
      renewalsToday: 11,
      cancellationsToday: 1,
      totalSubscribers: 3000,
      totalRevenueCents: 98765400,
    });
  });

  it('reads other spellings, with ARR = 12 × MRR and total = monthly + yearly', () => {
    expect(normaliseStats(STATS_ALIASED_WIRE)).toEqual({
      ...ZERO,
      mrrCents: 123456,
      arrCents: 123456 * 12,
      activeTotal: 812,
      activeMonthly: 640,
      activeYearly: 172,
      scheduledCancellations: 37,
      avgDaysRemaining: 41.7,
      newToday: 3,
      renewalsToday: 11,
      cancellationsToday: 1,
    });
  });

  it.each(Object.entries(STATS_ALIASES))('every alias of %s is read', (field, aliases) => {
    for (const alias of aliases) {
      const s = normaliseStats({ [alias]: 7 }) as unknown as Record<string, number | null>;
      const key =
        { mrr: 'mrrCents', arr: 'arrCents', totalRevenue: 'totalRevenueCents' }[field] ?? field;
      const expected = ['mrr', 'arr', 'totalRevenue'].includes(field)
        ? /cents$/i.test(alias)
          ? 7
          : 700
        : 7;
      expect(s[key], `${alias} → ${key}`).toBe(expected);
    }
  });

  // Dashboard fallbacks: a 0 that contradicts its parts is read as missing, not kept.
  it('falls back to monthly + yearly when the active total is missing or 0 but they are not', () => {
    expect(normaliseStats({ activeMonthly: 3, activeYearly: 2, active_total: 0 }).activeTotal).toBe(
      5,
    );
    expect(normaliseStats({ activeMonthly: 3, activeYearly: 2 }).activeTotal).toBe(5);
    expect(normaliseStats({ activeMonthly: 0, activeYearly: 0, active_total: 0 }).activeTotal).toBe(
      0,
    );
    expect(normaliseStats({ activeMonthly: 3, activeYearly: 2, active_total: 7 }).activeTotal).toBe(
      7,
    );
    expect(normaliseStats({ active: '9' }).activeTotal).toBe(9);
  });

  it('falls back to 12 × MRR when ARR is missing or 0 but MRR is not', () => {
    expect(normaliseStats({ mrr_cents: 1000, arr_cents: 0 }).arrCents).toBe(12000);
    expect(normaliseStats({ mrr_cents: 1000, arr: '0' }).arrCents).toBe(12000);
    expect(normaliseStats({ mrr_cents: 1000 }).arrCents).toBe(12000);
    expect(normaliseStats({ mrr_cents: 0, arr_cents: 0 }).arrCents).toBe(0);
    expect(normaliseStats({ mrr_cents: 1000, arr_cents: 11000 }).arrCents).toBe(11000);
  });

  it('applies the same fallbacks to the admin stats (§3 Admin stats)', () => {
    expect(normaliseAdminStats({ mrr: 1000, arr: 0 }).arrCents).toBe(12000);
    expect(
      normaliseAdminStats({ active_monthly: 3, active_yearly: 2, active_total: 0 }).activeTotal,
    ).toBe(5);
  });

  it('skips an alias that is not a number and reads the next one', () => {
    expect(normaliseStats({ newToday: 'n/a', new_today: 4 }).newToday).toBe(4);
    expect(normaliseStats({ active: { monthly: 1 }, activeMonthly: 1 }).activeTotal).toBe(1);
  });

  it('currency: upper-cased ISO code, else USD', () => {
    expect(normaliseStats({ currency: 'eur' }).currency).toBe('EUR');
    expect(normaliseStats({ currency: 'EURO' }).currency).toBe('USD');
    expect(normaliseStats({ currency: 978 }).currency).toBe('USD');
  });

  it('avg days: kept fractional, null when missing', () => {
    expect(normaliseStats({ avg_days_remaining: '12.25' }).avgDaysRemaining).toBe(12.25);
    expect(normaliseStats({}).avgDaysRemaining).toBeNull();
  });

  it.each([null, undefined, 42, 'stats', true, [], [STATS_WIRE]])(
    'a non-object (%o) gives the zero shape',
    (raw) => {
      expect(normaliseStats(raw)).toEqual(ZERO);
    },
  );

  it('readNumber accepts numbers and numeric strings only', () => {
    expect(readNumber(3)).toBe(3);
    expect(readNumber('3.5')).toBe(3.5);
    expect(readNumber('')).toBeNull();
    expect(readNumber(' ')).toBeNull();
    expect(readNumber(true)).toBeNull();
    expect(readNumber(Number.POSITIVE_INFINITY)).toBeNull();
    expect(readNumber('1e999')).toBeNull();
    expect(readNumber(null)).toBeNull();
  });
});

describe('normaliseStats: properties', () => {
  const expectComplete = (s: DashboardStats) => {
    expect(Object.keys(s).sort()).toEqual(Object.keys(ZERO).sort());
    expect(s.currency).toMatch(/^[A-Z]{3}$/);
    for (const [key, value] of Object.entries(s)) {
      if (key === 'currency') continue;
      if (key === 'avgDaysRemaining' && value === null) continue;
      expect(Number.isFinite(value), key).toBe(true);
      expect(Object.is(value, -0), key).toBe(false);
      if (key !== 'avgDaysRemaining') expect(Number.isInteger(value), key).toBe(true);
    }
  };

  /** Objects whose keys are the accepted aliases, holding numbers, numeric strings or junk. */
  const aliasedStats = fc.dictionary(
    fc.constantFrom('currency', ...Object.values(STATS_ALIASES).flat()),
    fc.oneof(
      fc.double({ noNaN: false }),
      fc.integer({ min: -1e9, max: 1e9 }),
      fc.integer({ min: -1e9, max: 1e9 }).map(String),
      fc.constantFrom('usd', 'EUR', '', ' ', 'x'),
      fc.constant(null),
      fc.boolean(),
    ),
  );

  it('never throws on arbitrary values and always gives a complete, finite shape', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), aliasedStats), (raw) => {
        expectComplete(normaliseStats(raw));
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent on its own output mapped back to the wire', () => {
    fc.assert(
      fc.property(fc.oneof(aliasedStats, fc.jsonValue()), (raw) => {
        const once = normaliseStats(raw);
        expect(normaliseStats(toWire(once))).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });

  it('ARR falls back to 12 × MRR whenever no ARR is sent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (mrrCents) => {
        expect(normaliseStats({ mrr_cents: mrrCents }).arrCents).toBe(mrrCents * 12 + 0);
      }),
    );
  });

  it('a whole value ≥ 1000 outside a cents field is kept as cents; below 1000 it is multiplied', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (value) => {
        const cents = normaliseStats({ mrr: value }).mrrCents;
        expect(cents).toBe(Math.abs(value) >= 1000 ? value : value * 100 + 0);
      }),
    );
  });
});

describe('normaliseAdminStats (§3 Admin stats)', () => {
  it('reads the reference answer (mrr/arr in cents)', () => {
    expect(normaliseAdminStats(ADMIN_STATUS_WIRE)).toEqual({
      dbOk: true,
      activeTotal: 812,
      activeMonthly: 640,
      activeYearly: 172,
      scheduledCancellations: 37,
      avgDaysRemaining: 41.7,
      mrrCents: 1234500,
      arrCents: 14814000,
      pendingExpire: 4,
      webhookDedupRows: 1289,
    });
  });

  it('falls back: active, then monthly + yearly; ARR = 12 × MRR; dbOk null when unknown', () => {
    expect(normaliseAdminStats({ active: 5, mrr: 100 })).toMatchObject({
      activeTotal: 5,
      arrCents: 1200,
      dbOk: null,
    });
    expect(normaliseAdminStats({ active_monthly: 2, active_yearly: 3, db_ok: 0 })).toMatchObject({
      activeTotal: 5,
      dbOk: false,
    });
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const s = normaliseAdminStats(raw);
        expect(Number.isFinite(s.mrrCents) && Number.isFinite(s.arrCents)).toBe(true);
      }),
    );
  });
});
