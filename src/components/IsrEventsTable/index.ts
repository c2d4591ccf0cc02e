export { IsrEventsTable, ISR_EVENT_COLUMNS, type IsrEventsTableProps } from './IsrEventsTable';
