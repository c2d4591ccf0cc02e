import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import reduceCssCalc from '../../../src/components/ChartFrame/reduceCssCalc';

/** The package itself, through Node's require (past Vite's alias to the stand-in). */
const reduceCssCalcPackage = createRequire(import.meta.url)('reduce-css-calc') as (
  value: string,
  precision?: number,
) => string;

/** The three expressions @visx/text builds (hooks/useText.js) for its vertical anchors. */
const visxExpressions = (lines: number, lineHeight: string, capHeight: string) => [
  `calc(${capHeight})`,
  `calc(${(lines - 1) / 2} * -${lineHeight} + (${capHeight} / 2))`,
  `calc(${lines - 1} * -${lineHeight})`,
];

describe('reduce-css-calc stand-in (chart chunk size)', () => {
  it('reduces what @visx/text asks, exactly as the package does', () => {
    for (const expr of visxExpressions(1, '1em', '0.71em'))
      expect(reduceCssCalc(expr)).toBe(reduceCssCalcPackage(expr));
    expect(reduceCssCalc('calc(0 * -1em + (0.71em / 2))')).toBe('0.355em');
    expect(reduceCssCalc('calc(1.5 * -1em + (0.71em / 2))')).toBe('-1.145em');
  });

  it('property: agrees with the package on every line count and em/px size visx can produce', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.5, max: 3, noNaN: true }).map((n) => Number(n.toFixed(2))),
        fc.double({ min: 0.1, max: 1.5, noNaN: true }).map((n) => Number(n.toFixed(2))),
        fc.constantFrom('em', 'px', 'rem'),
        (lines, lineHeight, capHeight, unit) => {
          for (const expr of visxExpressions(lines, `${lineHeight}${unit}`, `${capHeight}${unit}`))
            expect(reduceCssCalc(expr)).toBe(reduceCssCalcPackage(expr));
        },
      ),
    );
  });

  it('leaves what it cannot reduce unchanged', () => {
    for (const value of [
      '12px',
      'calc(1em + 2px)',
      'calc(var(--x) * 2)',
      'calc(1em / 0)',
      'calc(1 +)',
      '',
    ])
      expect(reduceCssCalc(value)).toBe(value);
  });
});
