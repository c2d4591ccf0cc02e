import { useId } from 'react';
import { formatCount } from '../../domain/format';
import {
  AUDIT_ACTION_FILTERS,
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_PAGE_SIZES,
  auditActionFilterLabel,
  type AuditEntry,
  type AuditFilters,
  type AuditPage,
  type AuditSortKey,
} from '../../domain/audit';
import type { AsyncState } from '../../domain/types';
import { AuditTable } from '../AuditTable';
import { Button } from '../Button';
import type { ServerListViewProps } from '../DataTable';
import { SelectField, type SelectOption } from '../Field';
import { FilterRow, type FilterField } from '../FilterRow';
import { PageHeader } from '../PageHeader';
import { Pager } from '../Pager';
import styles from './AuditView.module.css';

const ACTION_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Any' },
  ...AUDIT_ACTION_FILTERS.map((value) => ({ value, label: auditActionFilterLabel(value) })),
];

/** The filters: Operator, Action (an action or a group), Target, and the Time range (UTC). */
export const AUDIT_FILTER_FIELDS: readonly FilterField<AuditFilters>[] = [
  {
    kind: 'text',
    key: 'operator',
    label: 'Operator',
    type: 'search',
    placeholder: 'operator email',
  },
  { kind: 'select', key: 'action', label: 'Action', options: ACTION_OPTIONS },
  {
    kind: 'text',
    key: 'target',
    label: 'Target',
    type: 'search',
    placeholder: 'customer or operator email',
  },
  { kind: 'range', label: 'Time', from: 'from', to: 'to', input: 'datetime-local' },
];

const ROWS_OPTIONS = AUDIT_PAGE_SIZES.map((size) => ({
  value: String(size),
  label: String(size),
}));

/** Where the CSV export stands. */
export type AuditExportState =
  | { status: 'idle' }
  /** Pages are being fetched; `rows` gathered so far. */
  | { status: 'running'; rows: number }
  /** The file was handed to the browser; `isCapped`: more rows matched than it holds. */
  | { status: 'done'; rows: number; fileName: string; isCapped: boolean }
  | { status: 'error'; message: string };

/** Props of {@link AuditView}: the list's (GET /audit) plus the CSV export. */
export interface AuditViewProps extends Omit<
  ServerListViewProps<AuditFilters, AuditSortKey, AuditPage>,
  'onSortChange'
> {
  /** Where the export stands. */
  exportState: AuditExportState;
  /** Export CSV was pressed: write every filtered row (up to 10,000) to a file. */
  onExportCsv: () => void;
}

/** The export's line under the filters: progress, the result, the cap, or why it failed. */
function exportText(state: AuditExportState, total: number | null, isCapped: boolean): string {
  const cap = formatCount(AUDIT_EXPORT_MAX_ROWS);
  switch (state.status) {
    case 'running':
      return `Exporting… ${formatCount(state.rows)} rows so far.`;
    case 'done':
      return state.isCapped
        ? `Exported the newest ${formatCount(state.rows)} rows to ${state.fileName}: the export stops at ${cap} rows. Narrow the filters or the time range for the rest.`
        : `Exported ${formatCount(state.rows)} ${state.rows === 1 ? 'row' : 'rows'} to ${state.fileName}.`;
    case 'error':
      return `Export failed: ${state.message}`;
    default:
      return isCapped || (total ?? 0) > AUDIT_EXPORT_MAX_ROWS
        ? `Export CSV writes the newest ${cap} rows of these.`
        : '';
  }
}

/**
 * The Audit screen's view: who did what to whom, newest first; filters for operator,
 * action, target and time (UTC); Rows, Export CSV of the filtered rows and the pager. Pure.
 */
export function AuditView({
  list,
  query,
  filters,
  totalPages,
  isRefreshing = false,
  exportState,
  onFiltersChange,
  onClearAll,
  onPageChange,
  onPageSizeChange,
  onRefresh,
  onExportCsv,
}: AuditViewProps) {
  const titleId = useId();
  const rows: AsyncState<readonly AuditEntry[]> =
    list.status === 'ready' ? { status: 'ready', data: list.data.rows } : list;
  const total = list.status === 'ready' ? list.data.total : list.status === 'empty' ? 0 : null;
  const isBusy = list.status === 'loading' || isRefreshing;
  // The server stops counting at 10,000 rows: 'Total: 10,000+'.
  const isCapped = list.status === 'ready' && list.data.isTotalCapped;
  const formatTotal = (count: number) => `Total: ${formatCount(count)}${isCapped ? '+' : ''}`;
  const canExport = list.status === 'ready' && exportState.status !== 'running';
  const exportLine = exportText(exportState, total, isCapped);

  return (
    <section className={styles.view} aria-labelledby={titleId}>
      <PageHeader title="Audit" titleId={titleId}>
        <p className={styles.hint}>
          Who did what, to whom, from where (latest first). Times in UTC.
        </p>
      </PageHeader>
      <FilterRow
        label="Audit filters"
        fields={AUDIT_FILTER_FIELDS}
        values={filters}
        onValuesChange={onFiltersChange}
        onClearAll={onClearAll}
        actions={
          <>
            <Button
              // aria-disabled keeps the button focusable while busy, so the click is ignored here.
              onClick={() => {
                if (!isBusy) onRefresh();
              }}
              aria-disabled={isBusy || undefined}
            >
              Refresh
            </Button>
            <Button
              onClick={() => {
                if (canExport) onExportCsv();
              }}
              aria-disabled={!canExport || undefined}
            >
              Export CSV
            </Button>
          </>
        }
      >
        <SelectField
          label="Rows"
          options={ROWS_OPTIONS}
          value={String(query.pageSize)}
          onValueChange={(value) => onPageSizeChange(Number(value))}
        />
      </FilterRow>
      <p
        className={styles.export}
        role="status"
        data-tone={exportState.status === 'error' ? 'danger' : undefined}
      >
        {exportLine}
      </p>
      <AuditTable
        rows={rows}
        onRetry={onRefresh}
        onRefresh={onRefresh}
        isRefreshing={isRefreshing}
        rowCount={total ?? undefined}
        firstRowIndex={(query.page - 1) * query.pageSize}
      />
      {list.status !== 'error' ? (
        <Pager
          label="Audit pages"
          page={query.page}
          totalPages={totalPages ?? (list.status === 'empty' ? 1 : null)}
          total={total}
          formatTotal={formatTotal}
          pageSize={query.pageSize}
          onPageChange={onPageChange}
          onRefresh={onRefresh}
          isBusy={isBusy}
        />
      ) : null}
    </section>
  );
}
