import { DASH, formatUtcDateTimeSeconds } from '../../domain/format';
import { hasLogContext, logContextEmail, type LogEntry, type LogsSortKey } from '../../domain/logs';
import { CustomerLink } from '../CustomerLink';
import { DataTable, viewColumn, type DataTableColumn, type ListTableProps } from '../DataTable';
import { JsonBlock } from '../JsonBlock';
import { LogLevelBadge } from '../LogLevelBadge';
import styles from './LogsTable.module.css';

/**
 * The Context cell (§2): a 'view' disclosure that expands the entry's context as JSON and
 * collapses it again, and a link to the customer page when the context names a customer; a dash
 * when there is none.
 */
function ContextCell({ entry }: { entry: LogEntry }) {
  if (!hasLogContext(entry.context)) return <>{DASH}</>;
  const email = logContextEmail(entry.context);
  return (
    <>
      {email ? (
        <p className={styles.customer}>
          <CustomerLink email={email} />
        </p>
      ) : null}
      <ContextDisclosure entry={entry} />
    </>
  );
}

/** The 'view' disclosure of a log entry's context. */
function ContextDisclosure({ entry }: { entry: LogEntry }) {
  return (
    <details className={styles.context}>
      <summary className={styles.view}>
        view<span className="visually-hidden"> context</span>
      </summary>
      <JsonBlock label="Context" value={entry.context} isLabelHidden />
    </details>
  );
}

/** The §2 Logs columns: Timestamp (UTC, to the second), Level, Message, Context. None sorts. */
export const LOGS_COLUMNS: readonly DataTableColumn<LogEntry, LogsSortKey, undefined>[] = [
  {
    id: 'ts',
    header: 'Timestamp (UTC)',
    width: '176px',
    cell: (e) => {
      const shown = formatUtcDateTimeSeconds(e.ts);
      return e.ts && shown !== DASH ? <time dateTime={e.ts}>{shown}</time> : DASH;
    },
  },
  viewColumn<LogEntry, LogsSortKey, undefined, string | null>(
    'level',
    'Level',
    (e) => e.level,
    (level) => <LogLevelBadge level={level} />,
    {
      width: '96px',
      sortKey: null,
    },
  ),
  { id: 'msg', header: 'Message', width: '420px', wrap: true, cell: (e) => e.msg || DASH },
  {
    id: 'context',
    header: 'Context',
    width: '360px',
    wrap: true,
    cell: (e) => <ContextCell entry={e} />,
  },
];

/** Props of {@link LogsTable}: the list props (rows, Retry/Refresh, paging). */
export type LogsTableProps = Omit<ListTableProps<LogEntry, LogsSortKey>, 'sort' | 'onSortChange'>;

/** The Logs table's fixed configuration (§2 texts and states; §8 message shown as given). */
const LOGS_TABLE = {
  label: 'Server logs',
  columns: LOGS_COLUMNS,
  getRowId: (e: LogEntry) => e.id,
  loadingText: 'Loading…',
  emptyText: 'No logs found.',
  context: undefined,
};

/**
 * The server's log entries (§2 Logs, §3 Log entry), latest first as the server sends them, on the
 * shared DataTable: 'Loading…', the §8 error with Retry, 'No logs found.' with Refresh.
 */
export function LogsTable(props: LogsTableProps) {
  return <DataTable {...props} {...LOGS_TABLE} />;
}
