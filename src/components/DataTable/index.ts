export { DataTable, TruncatedText, DATA_TABLE_VIRTUALIZE_ABOVE_ROWS } from './DataTable';
export type {
  DataTableColumn,
  DataTableFooter,
  DataTableProps,
  TruncatedTextProps,
} from './DataTable';
