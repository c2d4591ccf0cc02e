import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseReconcileResult, reconcileSummary } from '../../../src/domain/reconcile';
import {
  RECONCILE_APPLIED_WIRE,
  RECONCILE_DRY_WIRE,
  reconcileNotAtProviderWire,
} from '../../msw/fixtures-reconcile';

describe('normaliseReconcileResult', () => {
  it('reads the wire answer into the inside shape', () => {
    const r = normaliseReconcileResult(RECONCILE_DRY_WIRE, 'clickbank');
    expect(r.provider).toBe('lemonsqueezy');
    expect(r.dryRun).toBe(true);
    expect(r.checked).toBe(1250);
    expect(r.missing[1]).toEqual({
      email: 'trial.start@example.com',
      subscriptionId: '4102',
      providerStatus: 'trialing',
    });
    expect(r.mismatched[2]).toEqual({
      email: 'gone@example.com',
      subscriptionId: '3202',
      field: 'ends_at',
      ours: null,
      theirs: '2026-11-19T00:00:00.000Z',
    });
    expect(reconcileSummary(r)).toBe('1,250 checked · 2 missing · 1 mismatched');
    expect(reconcileSummary(normaliseReconcileResult(RECONCILE_APPLIED_WIRE, 'lemonsqueezy'))).toBe(
      '1,250 checked · 2 missing · 1 mismatched · 3 fixed',
    );
  });

  it('only an explicit dryRun false is an applied run; the provider falls back to the one asked', () => {
    expect(normaliseReconcileResult({}, 'clickbank')).toMatchObject({
      provider: 'clickbank',
      dryRun: true,
      checked: 0,
      missing: [],
      mismatched: [],
      applied: 0,
      failed: [],
      notAtProvider: [],
      notAtProviderTotal: 0,
      ranAt: null,
    });
    expect(normaliseReconcileResult({ dryRun: false }, 'clickbank').dryRun).toBe(false);
  });

  it('reads the stored subscriptions the provider does not list, and their total', () => {
    const r = normaliseReconcileResult(reconcileNotAtProviderWire(3, 1204), 'lemonsqueezy');
    expect(r.notAtProvider).toHaveLength(3);
    expect(r.notAtProvider[1]).toEqual({
      email: 'only-here-2@example.com',
      subscriptionId: '3301',
      status: 'cancelled',
    });
    expect(r.notAtProviderTotal).toBe(1204);
    expect(reconcileSummary(r)).toBe(
      '1,250 checked · 0 missing · 0 mismatched · 1,204 not at the provider',
    );
    // A total below the rows listed (or none) counts the rows.
    const listedOnly = normaliseReconcileResult(
      { ...reconcileNotAtProviderWire(2), not_at_provider_total: 'x' },
      'lemonsqueezy',
    );
    expect(listedOnly.notAtProviderTotal).toBe(2);
    // ClickBank's answer lists none: the summary says nothing of them.
    expect(
      reconcileSummary(
        normaliseReconcileResult({ not_at_provider: [], not_at_provider_total: 0 }, 'clickbank'),
      ),
    ).toBe('0 checked · 0 missing · 0 mismatched');
  });

  it('never throws on arbitrary JSON, and its lists are always lists', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (wire) => {
        const r = normaliseReconcileResult(wire, 'lemonsqueezy');
        expect(Array.isArray(r.missing) && Array.isArray(r.mismatched)).toBe(true);
        expect(Array.isArray(r.notAtProvider)).toBe(true);
        expect(r.notAtProviderTotal).toBeGreaterThanOrEqual(r.notAtProvider.length);
        expect(Number.isInteger(r.checked) && r.checked >= 0).toBe(true);
        expect(typeof reconcileSummary(r)).toBe('string');
      }),
      { seed: 25 },
    );
  });
});
