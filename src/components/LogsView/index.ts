export { LogsView, LOGS_FILTER_FIELDS, type LogsViewProps } from './LogsView';
