export { MaintenanceView, type MaintenanceViewProps, type DiagState } from './MaintenanceView';
