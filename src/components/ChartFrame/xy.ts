/**
 * Geometry and theme shared by the xy charts (bars and lines over UTC days on a band scale).
 * The band scale here is built with the same settings XYChart gets, so the tooltip and the
 * highlight sit exactly over the drawn datum.
 */
import { scaleBand } from '@visx/scale';
import { buildChartTheme } from '@visx/xychart';
import { AXIS_COLORS, CHART_FONT } from './palette';

/** Space around the plot for the axes, px. */
export const XY_MARGIN = { top: 12, right: 16, bottom: 32, left: 64 } as const;

/** The band x scale's settings (XYChart xScale config). */
export const BAND_X_SCALE = { type: 'band', paddingInner: 0.2, paddingOuter: 0.1 } as const;
/** The linear y scale's settings: from zero, nice round ends. */
export const LINEAR_Y_SCALE = { type: 'linear', nice: true, zero: true } as const;

/** An xychart theme whose series colours are `colors` (in series registration order). */
export function xyTheme(colors: readonly string[]) {
  const label = { fontFamily: CHART_FONT, fontSize: 11, fill: AXIS_COLORS.tick };
  return buildChartTheme({
    backgroundColor: '#ffffff',
    colors: colors.length ? [...colors] : [AXIS_COLORS.tick],
    tickLength: 4,
    gridColor: AXIS_COLORS.grid,
    gridColorDark: AXIS_COLORS.axis,
    svgLabelSmall: label,
    svgLabelBig: { ...label, fontSize: 12 },
    xAxisLineStyles: { stroke: AXIS_COLORS.axis },
    yAxisLineStyles: { stroke: AXIS_COLORS.axis },
    xTickLineStyles: { stroke: AXIS_COLORS.axis },
    yTickLineStyles: { stroke: AXIS_COLORS.axis },
  });
}

/** Where each category's band lies, for the tooltip anchor and the highlight. */
export function bandGeometry(categories: readonly string[], width: number, height: number) {
  const scale = scaleBand<string>({
    domain: [...categories],
    range: [XY_MARGIN.left, Math.max(XY_MARGIN.left, width - XY_MARGIN.right)],
    paddingInner: BAND_X_SCALE.paddingInner,
    paddingOuter: BAND_X_SCALE.paddingOuter,
  });
  const step = scale.step();
  const plotTop = XY_MARGIN.top;
  const plotHeight = Math.max(0, height - XY_MARGIN.top - XY_MARGIN.bottom);
  return {
    plotWidth: Math.max(0, width - XY_MARGIN.left - XY_MARGIN.right),
    anchor: (index: number) => ({
      x: (scale(categories[index] ?? '') ?? 0) + scale.bandwidth() / 2,
      y: plotTop,
    }),
    highlight: (index: number) => ({
      x: (scale(categories[index] ?? '') ?? 0) - (step - scale.bandwidth()) / 2,
      y: plotTop,
      width: step,
      height: plotHeight,
    }),
  };
}
