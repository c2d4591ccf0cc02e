export { onDemand, whenIdle, type OnDemandPart, type OnDemandProps } from './OnDemand';
