import { useId } from 'react';
import { formatCount } from '../../domain/format';
import {
  LOGS_PAGE_SIZES,
  type LogEntry,
  type LogsFilters,
  type LogsPage,
  type LogsSortKey,
} from '../../domain/logs';
import { LOG_LEVELS, type AsyncState } from '../../domain/types';
import type { ServerListViewProps } from '../DataTable';
import { CheckboxField, SelectField } from '../Field';
import { FilterRow, optionsWithAny, type FilterField } from '../FilterRow';
import { Button } from '../Button';
import { LogsTable } from '../LogsTable';
import { PageHeader } from '../PageHeader';
import { Pager } from '../Pager';
import styles from './LogsView.module.css';

/** The §2 Logs filters: Level (Any, then the six levels) and Search (message, context). */
export const LOGS_FILTER_FIELDS: readonly FilterField<LogsFilters>[] = [
  { kind: 'select', key: 'level', label: 'Level', options: optionsWithAny('Any', LOG_LEVELS) },
  { kind: 'text', key: 'q', label: 'Search (message, context)', type: 'search' },
];

const ROWS_OPTIONS = LOGS_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }));

/** Props of {@link LogsView}: the list's (§7 GET /logs) plus Auto-refresh. */
export interface LogsViewProps extends Omit<
  ServerListViewProps<LogsFilters, LogsSortKey, LogsPage>,
  'onSortChange'
> {
  /** Whether the list reloads every 15 s (§4; on by default, paused while the tab is hidden). */
  isAutoRefresh: boolean;
  /** The Auto-refresh checkbox changed. */
  onAutoRefreshChange: (isOn: boolean) => void;
}

/**
 * The Logs screen's view (§2 Logs): title and 'Server application logs (latest first).', the
 * filter row (Level, Search, Rows, Auto-refresh, Refresh, Clear), the table (Timestamp UTC to
 * the second, Level badge, Message, Context 'view'), and Prev/Next with Total and Pages. Pure.
 */
export function LogsView({
  list,
  query,
  filters,
  totalPages,
  isRefreshing = false,
  isAutoRefresh,
  onFiltersChange,
  onClearAll,
  onPageChange,
  onPageSizeChange,
  onRefresh,
  onAutoRefreshChange,
}: LogsViewProps) {
  const titleId = useId();
  const rows: AsyncState<readonly LogEntry[]> =
    list.status === 'ready' ? { status: 'ready', data: list.data.rows } : list;
  const total = list.status === 'ready' ? list.data.total : list.status === 'empty' ? 0 : null;
  const isBusy = list.status === 'loading' || isRefreshing;
  // A search the server stopped counting at its cap reads 'Total: 1,000+'.
  const isCapped = list.status === 'ready' && list.data.isTotalCapped;
  const formatTotal = (count: number) => `Total: ${formatCount(count)}${isCapped ? '+' : ''}`;

  return (
    <section className={styles.view} aria-labelledby={titleId}>
      <PageHeader title="Logs" titleId={titleId}>
        <p className={styles.hint}>Server application logs (latest first).</p>
      </PageHeader>
      <FilterRow
        label="Log filters"
        fields={LOGS_FILTER_FIELDS}
        values={filters}
        onValuesChange={onFiltersChange}
        onClearAll={onClearAll}
        actions={
          <Button
            // aria-disabled keeps the button focusable while busy, so the click is ignored here.
            onClick={() => {
              if (!isBusy) onRefresh();
            }}
            aria-disabled={isBusy || undefined}
          >
            Refresh
          </Button>
        }
      >
        <SelectField
          label="Rows"
          options={ROWS_OPTIONS}
          value={String(query.pageSize)}
          onValueChange={(value) => onPageSizeChange(Number(value))}
        />
        <CheckboxField
          label="Auto-refresh"
          isChecked={isAutoRefresh}
          onCheckedChange={onAutoRefreshChange}
        />
      </FilterRow>
      <LogsTable
        rows={rows}
        onRetry={onRefresh}
        onRefresh={onRefresh}
        isRefreshing={isRefreshing}
        rowCount={total ?? undefined}
        firstRowIndex={(query.page - 1) * query.pageSize}
      />
      {list.status !== 'error' ? (
        <Pager
          label="Log pages"
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
