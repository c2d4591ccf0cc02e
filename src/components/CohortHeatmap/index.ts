export { CohortHeatmap, heatLevel, type CohortHeatmapProps } from './CohortHeatmap';
