export { IsrRangeControls, type IsrRangeControlsProps } from './IsrRangeControls';
