export {
  ChartFrame,
  type ChartFrameProps,
  type ChartStatus,
  type ChartTableData,
  type DatumDescription,
  type TooltipLine,
} from './ChartFrame';
export { useActiveIndex, type ActiveIndex } from './useActiveIndex';
export { seriesColor, SERIES_COLORS, AXIS_COLORS, CHART_FONT } from './palette';
export {
  formatAxisValue,
  formatFullValue,
  formatDayTick,
  thinTicks,
  type ValueKind,
} from './chartFormat';
