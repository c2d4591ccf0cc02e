export { DataTable } from './DataTable';
export { TruncatedText, type TruncatedTextProps } from './TruncatedText';
export { DATA_TABLE_VIRTUALIZE_ABOVE_ROWS } from './useRowVirtualizer';
export type {
  DataTableColumn,
  DataTableFooter,
  DataTableProps,
  ListTableProps,
  ServerListViewProps,
} from './types';
export { actionsColumn, textColumn, utcColumn, viewColumn } from './columns';
