export { LogsTable, LOGS_COLUMNS, type LogsTableProps } from './LogsTable';
