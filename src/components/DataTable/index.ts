export { DataTable, TruncatedText, DATA_TABLE_VIRTUALIZE_ABOVE_ROWS } from './DataTable';
export type {
  DataTableColumn,
  DataTableFooter,
  DataTableProps,
  ListTableProps,
  ServerListViewProps,
  TruncatedTextProps,
} from './DataTable';
export { actionsColumn, textColumn, utcColumn, viewColumn } from './columns';
