/**
 * `@visx/scale` as the chart chunk needs it. @visx/xychart builds its x and y scales through
 * `createScale(config)`, which switches over all fourteen scale kinds at run time, so a bundler
 * must keep every one of them: the time and UTC scales bring d3-time-format and its locale tables,
 * and log, pow, symlog, quantile, quantize, threshold and radial come along (about 4 KiB gzip of
 * the chart chunk, which bench/bundle-size.ts holds to a budget). The charts use only band and
 * linear scales (ChartFrame/xy.ts, RankedBarsChart), and xychart's colour scale is ordinal.
 *
 * This module re-exports the package unchanged except `createScale`, which builds those kinds
 * (band, point, ordinal, linear — linear also being the package's fallback when no type is given)
 * and throws for any other, naming this file, so a chart that starts using a time or log scale
 * fails at once in its story instead of drawing wrongly. vite.config.ts points `@visx/scale`
 * imports at this module (every importer but this file); the narrowing is checked by
 * tests/unit/components/visxScale.test.ts against the package's own createScale.
 */
import { scaleBand, scaleLinear, scaleOrdinal, scalePoint } from '@visx/scale';

export * from '@visx/scale';

/** The scale kinds {@link createScale} builds. */
export const BUNDLED_SCALE_TYPES = ['band', 'point', 'ordinal', 'linear'] as const;

/** A createScale config: `type` names the kind; the rest is that kind's visx options. */
type ScaleConfig = { type?: string } & Record<string, unknown>;

/**
 * The package's createScale for the bundled kinds: band, point, ordinal and linear (also when
 * `type` is missing, as the package does). Throws an Error for any other kind.
 */
export function createScale(config?: ScaleConfig) {
  switch (config?.type) {
    case 'band':
      return scaleBand(config as Parameters<typeof scaleBand>[0]);
    case 'point':
      return scalePoint(config as Parameters<typeof scalePoint>[0]);
    case 'ordinal':
      return scaleOrdinal(config as Parameters<typeof scaleOrdinal>[0]);
    case 'linear':
    case undefined:
      return scaleLinear(config as Parameters<typeof scaleLinear>[0]);
    default:
      throw new Error(
        `@visx/scale createScale: the '${String(config?.type)}' scale is not bundled; add it in src/components/ChartFrame/visxScale.ts`,
      );
  }
}
