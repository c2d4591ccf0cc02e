import { DASH, formatUtcDateTimeSeconds } from '../../domain/format';
import {
  AUDIT_OUTCOME_LABELS,
  auditOutcomeTone,
  summariseAuditDetail,
  summariseUserAgent,
  type AuditEntry,
  type AuditOutcome,
  type AuditSortKey,
} from '../../domain/audit';
import { Badge } from '../Badge';
import {
  DataTable,
  TruncatedText,
  textColumn,
  viewColumn,
  type DataTableColumn,
  type ListTableProps,
} from '../DataTable';
import { JsonBlock } from '../JsonBlock';
import styles from './AuditTable.module.css';

/** An audit row's time: UTC to the second in a <time> element, or a dash. */
export function AuditTime({ at }: { at: string | null }) {
  const shown = formatUtcDateTimeSeconds(at);
  return at && shown !== DASH ? <time dateTime={at}>{shown}</time> : <>{DASH}</>;
}

/** An outcome as a badge whose text says it ('OK', 'Failed', 'Refused'); colour only reinforces. */
export function AuditOutcomeBadge({ outcome }: { outcome: AuditOutcome }) {
  return <Badge tone={auditOutcomeTone(outcome)}>{AUDIT_OUTCOME_LABELS[outcome]}</Badge>;
}

/**
 * The Detail cell: the before/after detail on one line ('mg_status active → cancelled'), a
 * disclosure that opens the whole detail as pretty-printed JSON; a dash when there is none.
 */
export function AuditDetail({ detail }: { detail: unknown }) {
  const summary = summariseAuditDetail(detail);
  if (summary === null) return <>{DASH}</>;
  return (
    <details className={styles.detail}>
      <summary className={styles.summary} title={summary}>
        {summary}
      </summary>
      <JsonBlock label="Detail" value={detail} isLabelHidden />
    </details>
  );
}

/** The Browser cell: the user agent in a few words, the whole header on hover and read out. */
function BrowserCell({ userAgent }: { userAgent: string | null }) {
  const summary = summariseUserAgent(userAgent);
  if (summary === null || userAgent === null) return <>{DASH}</>;
  return (
    <span className={styles.browser} title={userAgent}>
      {summary}
      {summary !== userAgent ? <span className="visually-hidden"> ({userAgent})</span> : null}
    </span>
  );
}

/**
 * Time (UTC), Operator, Action, Target, Outcome, IP, Browser, Detail. None sorts. The widths add
 * up to 1,200 px, so the table fits a 1,280 px window and the spare width goes to every column:
 * nothing in it is focusable while it loads, so it must not need scrolling then.
 */
export const AUDIT_COLUMNS: readonly DataTableColumn<AuditEntry, AuditSortKey, undefined>[] = [
  { id: 'at', header: 'Time (UTC)', width: '196px', cell: (r) => <AuditTime at={r.at} /> },
  {
    id: 'operator',
    header: 'Operator',
    width: '150px',
    cell: (r) => (r.operatorEmail ? <TruncatedText text={r.operatorEmail} /> : DASH),
  },
  {
    id: 'action',
    header: 'Action',
    width: '164px',
    cell: (r) => (r.action ? <code className={styles.code}>{r.action}</code> : DASH),
  },
  {
    id: 'target',
    header: 'Target',
    width: '158px',
    cell: (r) => (r.target ? <TruncatedText text={r.target} /> : DASH),
  },
  viewColumn<AuditEntry, AuditSortKey, undefined, AuditOutcome>(
    'outcome',
    'Outcome',
    (r) => r.outcome,
    (outcome) => <AuditOutcomeBadge outcome={outcome} />,
    { width: '96px', sortKey: null },
  ),
  textColumn<AuditEntry, AuditSortKey, undefined>('ip', 'IP', (r) => r.ip, {
    width: '100px',
    sortKey: null,
  }),
  {
    id: 'browser',
    header: 'Browser',
    width: '128px',
    cell: (r) => <BrowserCell userAgent={r.userAgent} />,
  },
  {
    id: 'detail',
    header: 'Detail',
    width: '208px',
    wrap: true,
    cell: (r) => <AuditDetail detail={r.detail} />,
  },
];

/** Props of {@link AuditTable}: the list props (rows, Retry/Refresh, paging). */
export type AuditTableProps = Omit<
  ListTableProps<AuditEntry, AuditSortKey>,
  'sort' | 'onSortChange'
>;

/** The table's fixed configuration; its name 'Audit trail' is what screen readers announce. */
const AUDIT_TABLE = {
  label: 'Audit trail',
  columns: AUDIT_COLUMNS,
  getRowId: (r: AuditEntry) => r.id,
  loadingText: 'Loading…',
  emptyText: 'No audit rows found.',
  context: undefined,
};

/**
 * The audit trail, newest first as the server sends it, on the shared DataTable: 'Loading…', the
 * error with Retry, 'No audit rows found.' with Refresh.
 */
export function AuditTable(props: AuditTableProps) {
  return <DataTable {...props} {...AUDIT_TABLE} />;
}
