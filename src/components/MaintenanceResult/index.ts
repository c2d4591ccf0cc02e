export { MaintenanceResult, type MaintenanceResultProps } from './MaintenanceResult';
