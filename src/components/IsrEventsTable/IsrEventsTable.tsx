import { formatCount, formatCurrency, formatUtcDateTime, DASH } from '../../domain/format';
import { ISR_EVENTS_PAGE_SIZE, type IsrEvent } from '../../domain/isr';
import type { AsyncState } from '../../domain/types';
import { Button } from '../Button';
import { CustomerLink } from '../CustomerLink';
import { DataTable, type DataTableColumn } from '../DataTable';
import styles from './IsrEventsTable.module.css';

/** Props of {@link IsrEventsTable}. */
export interface IsrEventsTableProps {
  /** The page of events; an error reads as 'No events' (§8: the ISR events page shows no errors). */
  rows: AsyncState<readonly IsrEvent[]>;
  /** The current page, 1-based. */
  page: number;
  /** Total pages once known (≥ 1), else null. */
  totalPages: number | null;
  /** Total events once known, else null ('Total: N events'). */
  total: number | null;
  /** The server stopped counting a search at `total` (its cap): reads 'Total: 1,000+ events'. */
  isTotalCapped?: boolean;
  /** A new page loads while this one stays shown. */
  isRefreshing?: boolean;
  /** Prev/Next chose a page (already within bounds). */
  onPageChange: (page: number) => void;
}

/** A referrer link only for http(s) addresses, so a javascript: or data: value is never a link. */
function safeHref(referrer: string): string | null {
  try {
    const url = new URL(referrer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The referrer, cut to its cell with an ellipsis; the full text shows on hover (title) and, for a
 * link, in place while the link has keyboard focus (§2 "truncated, full text on hover").
 */
function ReferrerCell({ referrer }: { referrer: string | null }) {
  if (!referrer) return <>{DASH}</>;
  const href = safeHref(referrer);
  return (
    <span className={styles.referrer} title={referrer}>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {referrer}
        </a>
      ) : (
        referrer
      )}
    </span>
  );
}

/** Two facts in one cell: the main one, and a muted second line. */
function Pair({ main, sub }: { main: string | null; sub: string | null }) {
  return (
    <span className={styles.pair}>
      <span>{main ?? DASH}</span>
      <span className={styles.sub}>{sub ?? DASH}</span>
    </span>
  );
}

/** §2 events table columns, in order. */
export const ISR_EVENT_COLUMNS: readonly DataTableColumn<IsrEvent>[] = [
  { id: 'when', header: 'When', cell: (e) => formatUtcDateTime(e.createdAt), width: '9.5rem' },
  { id: 'source', header: 'Source', cell: (e) => e.source ?? DASH, width: '7rem' },
  {
    id: 'receipt',
    header: 'Receipt / Order',
    cell: (e) => <Pair main={e.receipt} sub={e.orderId} />,
  },
  {
    id: 'amount',
    header: 'Amount',
    align: 'end',
    cell: (e) => formatCurrency(e.amountCents, e.currency, 2),
    width: '7rem',
  },
  {
    id: 'affiliate',
    header: 'Affiliate / SubID',
    cell: (e) => <Pair main={e.affiliate} sub={e.subid} />,
  },
  { id: 'campaign', header: 'Campaign', cell: (e) => e.campaign ?? DASH },
  {
    id: 'email',
    header: 'Email',
    cell: (e) => (e.customerEmail ? <CustomerLink email={e.customerEmail} /> : DASH),
  },
  {
    id: 'referrer',
    header: 'Referrer',
    cell: (e) => <ReferrerCell referrer={e.referrer} />,
    width: '16rem',
  },
];

const rowId = (e: IsrEvent) => e.id ?? `${e.createdAt}-${e.receipt}-${e.orderId}`;

/**
 * The Integrated Tracking events table (§2) on the shared DataTable: the eight columns, 'No
 * events' when empty, then 'Total: N events' ('Total: 1,000+ events' for a search the server
 * stopped counting) and 'Page x / y' with Prev/Next (pages of 50, §9).
 */
export function IsrEventsTable({
  rows,
  page,
  totalPages,
  total,
  isTotalCapped = false,
  isRefreshing = false,
  onPageChange,
}: IsrEventsTableProps) {
  const shown: AsyncState<readonly IsrEvent[]> =
    rows.status === 'error' ? { status: 'empty' } : rows;
  const last = totalPages ?? 1;
  const busy = isRefreshing || rows.status === 'loading';
  return (
    <div className={styles.wrap}>
      <DataTable
        label="ISR events"
        columns={ISR_EVENT_COLUMNS}
        rows={shown}
        getRowId={rowId}
        context={undefined}
        emptyText="No events"
        isRefreshing={isRefreshing}
        rowCount={total ?? undefined}
        firstRowIndex={(page - 1) * ISR_EVENTS_PAGE_SIZE}
      />
      <nav className={styles.pager} aria-label="ISR events pages">
        <span>
          Total: {total === null ? '…' : `${formatCount(total)}${isTotalCapped ? '+' : ''}`} events
        </span>
        <Button
          size="small"
          aria-disabled={page <= 1 || busy || undefined}
          onClick={() => {
            if (page > 1 && !busy) onPageChange(page - 1);
          }}
        >
          Prev
        </Button>
        <span aria-live="polite">
          Page {formatCount(page)} / {totalPages === null ? '…' : formatCount(last)}
        </span>
        <Button
          size="small"
          aria-disabled={page >= last || busy || undefined}
          onClick={() => {
            if (page < last && !busy) onPageChange(page + 1);
          }}
        >
          Next
        </Button>
      </nav>
    </div>
  );
}
