import { createContext, useContext, useMemo } from 'react';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type CellContext,
  type SortingState,
} from '@tanstack/react-table';
import { DASH, formatAmountWithCode, formatUtcDateTime } from '../../domain/format';
import { MIXED_CURRENCY_LABEL, pageAmountTotal } from '../../domain/detail';
import { cadenceLabel, orDash } from '../../domain/subscription-view';
import type {
  AsyncState,
  SortState,
  SubscriptionRow,
  SubscriptionSortKey,
} from '../../domain/types';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { ProviderStatusBadge } from '../ProviderStatusBadge';
import styles from './SubscriptionsTable.module.css';

/** Props of {@link SubscriptionsTable}. */
export interface SubscriptionsTableProps {
  /** The page's rows as an async state: loading, error (message shown as given), empty, ready. */
  rows: AsyncState<readonly SubscriptionRow[]>;
  /** The server-side sort in force (§2; default row_id descending), shown with aria-sort. */
  sort: SortState<SubscriptionSortKey>;
  /** A sortable header was clicked; the screen toggles or switches the sort (§2). */
  onSortChange: (key: SubscriptionSortKey) => void;
  /** The email or View button of a row was clicked: open its detail drawer (§2). */
  onOpenDetails: (row: SubscriptionRow) => void;
  /** Retry after an error, Refresh on an empty list: reload the page. */
  onRefresh: () => void;
}

/** Column ids: the §2 sort key of each sortable column, plus the Actions column. */
type ColumnId = SubscriptionSortKey | 'actions';

/** Header texts (§2 Subscriptions columns), by column id, in display order. */
const COLUMN_LABELS: Record<ColumnId, string> = {
  row_id: 'ID',
  email: 'Email / Name',
  provider: 'Provider',
  provider_id: 'Sub ID',
  provider_status: 'Status',
  cadence: 'Cadence',
  start_date: 'Start',
  current_period_end: 'Renews',
  expires_at: 'Expires',
  amount: 'Amount',
  updated_at: 'Last Update',
  actions: 'Actions',
};
/** Columns whose content is a figure: right-aligned, tabular. */
const END_ALIGNED: ReadonlySet<ColumnId> = new Set<ColumnId>(['row_id', 'amount']);
/** Columns before Amount: the footer's label spans them. */
const COLUMNS_BEFORE_AMOUNT = 9;

const column = createColumnHelper<SubscriptionRow>();
const NO_ROWS: readonly SubscriptionRow[] = [];

function isSortKey(id: string): id is SubscriptionSortKey {
  return id !== 'actions' && id in COLUMN_LABELS;
}

/**
 * A UTC date cell: 'YYYY-MM-DD HH:MM' (§5) in a <time> element, or a dash. The date and the time
 * each stay on one line, so a narrow column wraps between them and never inside a date.
 */
function UtcCell({ value }: { value: string | null }) {
  const shown = formatUtcDateTime(value);
  if (shown === DASH || value == null) return <>{DASH}</>;
  const [day, time] = shown.split(' ');
  return (
    <time dateTime={value}>
      <span className={styles.nowrap}>{day}</span> <span className={styles.nowrap}>{time}</span>
    </time>
  );
}

/**
 * The open-details handler for the cells. Passed by context so the column definitions stay at
 * module scope: TanStack renders cell functions as components, and rebuilding them would remount
 * every trigger button and lose the element focus must return to when the drawer closes.
 */
const OpenDetailsContext = createContext<(row: SubscriptionRow) => void>(() => {});

/** Email / Name: the email is the button that opens the details; the name sits under it. */
function EmailCell({ row }: CellContext<SubscriptionRow, string>) {
  const onOpenDetails = useContext(OpenDetailsContext);
  const subscription = row.original;
  return (
    <div className={styles.who}>
      <button
        type="button"
        className={styles.emailButton}
        onClick={() => onOpenDetails(subscription)}
      >
        {subscription.email.trim() || DASH}
      </button>
      {subscription.name ? <span className={styles.name}>{subscription.name}</span> : null}
    </div>
  );
}

/** Actions: View, named after the row's email for screen readers. */
function ActionsCell({ row }: CellContext<SubscriptionRow, unknown>) {
  const onOpenDetails = useContext(OpenDetailsContext);
  const subscription = row.original;
  return (
    <Button
      size="small"
      aria-label={`View details for ${subscription.email.trim() || DASH}`}
      onClick={() => onOpenDetails(subscription)}
    >
      View
    </Button>
  );
}

/** The §2 columns, in order; ids are the sort keys (module scope: stable across renders). */
const COLUMNS = [
  column.accessor('rowId', { id: 'row_id', cell: (info) => info.getValue() }),
  column.accessor('email', { id: 'email', cell: EmailCell }),
  column.accessor('provider', { id: 'provider', cell: (info) => orDash(info.getValue()) }),
  column.accessor('providerId', {
    id: 'provider_id',
    cell: (info) => <span className={styles.code}>{orDash(info.getValue())}</span>,
  }),
  column.accessor('status', {
    id: 'provider_status',
    cell: (info) => <ProviderStatusBadge status={info.getValue()} />,
  }),
  column.accessor('cadence', { id: 'cadence', cell: (info) => cadenceLabel(info.getValue()) }),
  column.accessor('startDate', {
    id: 'start_date',
    cell: (info) => <UtcCell value={info.getValue()} />,
  }),
  column.accessor('currentPeriodEnd', {
    id: 'current_period_end',
    cell: (info) => <UtcCell value={info.getValue()} />,
  }),
  column.accessor('expiresAt', {
    id: 'expires_at',
    cell: (info) => <UtcCell value={info.getValue()} />,
  }),
  column.accessor('amountCents', {
    id: 'amount',
    cell: (info) => formatAmountWithCode(info.getValue(), info.row.original.currency),
  }),
  column.accessor('updatedAt', {
    id: 'updated_at',
    cell: (info) => <UtcCell value={info.getValue()} />,
  }),
  column.display({ id: 'actions', cell: ActionsCell }),
];

/** The footer text: the page's amount total with its currency, '— Mixed —', or a dash (§2). */
function footerTotal(rows: readonly SubscriptionRow[]): string {
  const total = pageAmountTotal(rows);
  if (total.kind === 'mixed') return MIXED_CURRENCY_LABEL;
  if (total.kind === 'none') return DASH;
  return formatAmountWithCode(total.amountCents, total.currency);
}

/**
 * The Subscriptions table (§2): server-sorted by the 11 keys of §2 (headers are buttons carrying
 * aria-sort), one row per subscription with the email as the detail trigger and a View action, and a
 * footer totalling the page's amounts. Loading, error (with Retry) and empty (with Refresh) replace
 * the body. Holds no state: sorting and which row is open belong to the screen.
 */
export function SubscriptionsTable({
  rows,
  sort,
  onSortChange,
  onOpenDetails,
  onRefresh,
}: SubscriptionsTableProps) {
  const data = rows.status === 'ready' ? rows.data : NO_ROWS;
  const sorting: SortingState = useMemo(
    () => [{ id: sort.key, desc: sort.direction === 'desc' }],
    [sort.key, sort.direction],
  );
  // Not memoised by a compiler here (the project runs without React Compiler); TanStack's
  // instance is read fresh on every render, which is what this warning asks for.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<SubscriptionRow>({
    data: data as SubscriptionRow[],
    columns: COLUMNS,
    state: { sorting },
    manualSorting: true,
    enableSortingRemoval: false,
    getRowId: (row) => String(row.rowId),
    getCoreRowModel: getCoreRowModel(),
  });

  const columnCount = COLUMNS.length;
  const bodyRows = table.getRowModel().rows;
  const isReady = rows.status === 'ready' && bodyRows.length > 0;

  return (
    <OpenDetailsContext value={onOpenDetails}>
      <div className={styles.frame}>
        <table className={styles.table} aria-busy={rows.status === 'loading'}>
          <caption className="visually-hidden">Subscriptions</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const id = header.column.id as ColumnId;
                  const label = COLUMN_LABELS[id];
                  const align = END_ALIGNED.has(id) ? 'end' : 'start';
                  if (!isSortKey(id)) {
                    return (
                      <th key={header.id} scope="col" data-align={align} className={styles.th}>
                        {label}
                      </th>
                    );
                  }
                  const isSorted = sort.key === id;
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      data-align={align}
                      className={styles.th}
                      aria-sort={
                        isSorted
                          ? sort.direction === 'asc'
                            ? 'ascending'
                            : 'descending'
                          : undefined
                      }
                    >
                      <button
                        type="button"
                        className={styles.sortButton}
                        data-sorted={isSorted ? sort.direction : 'none'}
                        onClick={() => onSortChange(id)}
                      >
                        {label}
                        <span className={styles.sortIcon} aria-hidden="true">
                          {isSorted ? (sort.direction === 'asc' ? '↑' : '↓') : '↕'}
                        </span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.status === 'loading' ? (
              <tr>
                <td colSpan={columnCount} className={styles.stateCell}>
                  <div role="status" className={styles.stateText}>
                    Loading subscriptions…
                  </div>
                </td>
              </tr>
            ) : rows.status === 'error' ? (
              <tr>
                <td colSpan={columnCount} className={styles.stateCell}>
                  <Banner
                    tone="danger"
                    action={
                      <Button size="small" onClick={onRefresh}>
                        Retry
                      </Button>
                    }
                  >
                    {rows.message}
                  </Banner>
                </td>
              </tr>
            ) : !isReady ? (
              <tr>
                <td colSpan={columnCount} className={styles.stateCell}>
                  <div className={styles.empty}>
                    <p role="status" className={styles.stateText}>
                      No subscriptions found.
                    </p>
                    <Button size="small" onClick={onRefresh}>
                      Refresh
                    </Button>
                  </div>
                </td>
              </tr>
            ) : (
              bodyRows.map((row) => (
                <tr key={row.id} className={styles.row}>
                  {row.getVisibleCells().map((cell) => {
                    const id = cell.column.id as ColumnId;
                    return (
                      <td
                        key={cell.id}
                        className={styles.td}
                        data-column={id}
                        data-align={END_ALIGNED.has(id) ? 'end' : 'start'}
                      >
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
          {isReady ? (
            <tfoot>
              <tr className={styles.footRow}>
                <th scope="row" colSpan={COLUMNS_BEFORE_AMOUNT} className={styles.footLabel}>
                  Page total
                </th>
                <td className={styles.footAmount} data-align="end">
                  {footerTotal(data)}
                </td>
                <td colSpan={columnCount - COLUMNS_BEFORE_AMOUNT - 1} />
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
    </OpenDetailsContext>
  );
}
