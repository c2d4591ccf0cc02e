export { SessionsTable, type SessionsTableProps } from './SessionsTable';
