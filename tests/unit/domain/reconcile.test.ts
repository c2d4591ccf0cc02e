import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseReconcileResult, reconcileSummary } from '../../../src/domain/reconcile';
import { RECONCILE_APPLIED_WIRE, RECONCILE_DRY_WIRE } from '../../msw/fixtures-reconcile';

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
      ranAt: null,
    });
    expect(normaliseReconcileResult({ dryRun: false }, 'clickbank').dryRun).toBe(false);
  });

  it('never throws on arbitrary JSON, and its lists are always lists', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (wire) => {
        const r = normaliseReconcileResult(wire, 'lemonsqueezy');
        expect(Array.isArray(r.missing) && Array.isArray(r.mismatched)).toBe(true);
        expect(Number.isInteger(r.checked) && r.checked >= 0).toBe(true);
        expect(typeof reconcileSummary(r)).toBe('string');
      }),
      { seed: 25 },
    );
  });
});
