import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as throughConfig from '@visx/scale';
import type * as VisxScalePackage from '@visx/scale';
import * as narrowed from '../../../src/components/ChartFrame/visxScale';
import { BAND_X_SCALE, LINEAR_Y_SCALE } from '../../../src/components/ChartFrame/xy';

/** The package itself, through Node's require (past vite.config.ts's redirect to the module). */
const visxScale = createRequire(import.meta.url)('@visx/scale') as typeof VisxScalePackage;

type AnyScale = {
  domain(): unknown[];
  range(): unknown[];
  bandwidth?: () => number;
  ticks?: (count?: number) => number[];
  (value: unknown): unknown;
};

/** What a chart reads from a scale: domain, range, band width, ticks and where values land. */
function fingerprint(scale: unknown, values: unknown[]) {
  const s = scale as AnyScale;
  return {
    domain: s.domain(),
    range: s.range(),
    bandwidth: s.bandwidth?.(),
    ticks: s.ticks?.(5),
    mapped: values.map((v) => s(v)),
  };
}

describe('narrowed @visx/scale (chart chunk size)', () => {
  it('vite.config.ts sends @visx/scale imports to the narrowed module', () => {
    expect(throughConfig.createScale).toBe(narrowed.createScale);
    expect(narrowed.BUNDLED_SCALE_TYPES).toEqual(['band', 'point', 'ordinal', 'linear']);
  });

  it('property: band scales (the charts’ x and ranked y) equal the package’s', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2000 }),
        (days, width) => {
          const config = { ...BAND_X_SCALE, domain: days, range: [0, width] as [number, number] };
          expect(fingerprint(narrowed.createScale(config), days)).toEqual(
            fingerprint(visxScale.createScale(config), days),
          );
        },
      ),
    );
  });

  it('property: linear scales with nice and zero (the charts’ values) equal the package’s', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        (max, height) => {
          const config = {
            ...LINEAR_Y_SCALE,
            domain: [0, max] as [number, number],
            range: [height, 0] as [number, number],
          };
          const values = [0, max / 3, max];
          expect(fingerprint(narrowed.createScale(config), values)).toEqual(
            fingerprint(visxScale.createScale(config), values),
          );
        },
      ),
    );
  });

  it('point, ordinal and a config without a type (linear) equal the package’s', () => {
    const point = {
      type: 'point' as const,
      domain: ['a', 'b', 'c'],
      range: [0, 90] as [number, number],
    };
    expect(fingerprint(narrowed.createScale(point), ['a', 'c'])).toEqual(
      fingerprint(visxScale.createScale(point), ['a', 'c']),
    );
    const ordinal = { type: 'ordinal' as const, domain: ['x', 'y'], range: ['#111', '#222'] };
    expect(fingerprint(narrowed.createScale(ordinal), ['x', 'y', 'z'])).toEqual(
      fingerprint(visxScale.createScale(ordinal), ['x', 'y', 'z']),
    );
    const untyped = { domain: [0, 10], range: [0, 100] } as { domain: number[]; range: number[] };
    expect(fingerprint(narrowed.createScale(untyped), [5])).toEqual(
      fingerprint(visxScale.createScale(untyped), [5]),
    );
  });

  it('a kind that is not bundled fails loudly instead of drawing a wrong chart', () => {
    for (const type of ['time', 'utc', 'log', 'pow', 'sqrt', 'symlog', 'quantile', 'radial'])
      expect(() => narrowed.createScale({ type, domain: [1, 2], range: [0, 1] })).toThrow(
        `the '${type}' scale is not bundled`,
      );
  });
});
