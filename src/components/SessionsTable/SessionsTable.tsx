import { useMemo, useRef, useState } from 'react';
import { summariseUserAgent, type AccountSession } from '../../domain/account';
import type { AsyncState } from '../../domain/types';
import { Badge } from '../Badge';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { ConfirmDialog } from '../ConfirmDialog';
import { actionsColumn, DataTable, utcColumn, type DataTableColumn } from '../DataTable';

/** Props of {@link SessionsTable}. */
export interface SessionsTableProps {
  /** The operator's open sessions (GET /auth/sessions). */
  sessions: AsyncState<readonly AccountSession[]>;
  /** The id of the session being ended, or null. */
  endingId: string | null;
  /** The last End's failure (e.g. "No open session with that id"), or null. */
  endError: string | null;
  /** The operator confirmed ending session `id` (DELETE /auth/sessions/:id). */
  onEnd: (id: string) => void;
  /** Reload after an error. */
  onRetry: () => void;
}

/** What the cells read from the table. */
interface Context {
  endingId: string | null;
  onEndRequest: (session: AccountSession, trigger: HTMLElement) => void;
}

/** The browser and address of a session, e.g. "Chrome on Linux, 203.0.113.7". */
function describe(session: AccountSession): string {
  const browser = summariseUserAgent(session.userAgent);
  return session.ip ? `${browser}, ${session.ip}` : browser;
}

const COLUMNS: readonly DataTableColumn<AccountSession, string, Context>[] = [
  utcColumn('created', 'Created (UTC)', (s) => s.createdAt, { width: '10rem', sortKey: null }),
  utcColumn('last_seen', 'Last seen (UTC)', (s) => s.lastSeenAt, {
    width: '10rem',
    sortKey: null,
  }),
  {
    id: 'ip',
    header: 'IP',
    width: '9rem',
    cell: (s) => s.ip ?? '—',
  },
  {
    id: 'browser',
    header: 'Browser',
    width: '14rem',
    // The summary reads well; the full header stays one hover (and one screen-reader pass) away.
    wrap: true,
    cell: (s) => <span title={s.userAgent ?? undefined}>{summariseUserAgent(s.userAgent)}</span>,
  },
  actionsColumn<AccountSession, string, Context>(
    (s, { endingId, onEndRequest }) =>
      s.isCurrent ? (
        <Badge tone="info">This session</Badge>
      ) : (
        <Button
          size="small"
          variant="danger"
          disabled={endingId !== null}
          aria-busy={endingId === s.id || undefined}
          aria-label={`End session: ${describe(s)}`}
          onClick={(event) => onEndRequest(s, event.currentTarget)}
        >
          End session
        </Button>
      ),
    '8rem',
  ),
];

/**
 * My sessions: created, last seen, IP and browser (the user agent
 * summarised, e.g. "Chrome on Linux"). The current session is marked "This session" and has no
 * End; ending another asks first.
 */
export function SessionsTable({
  sessions,
  endingId,
  endError,
  onEnd,
  onRetry,
}: SessionsTableProps) {
  const [confirming, setConfirming] = useState<AccountSession | null>(null);
  // Focus goes back to the row's End button when the dialog closes.
  const triggerRef = useRef<HTMLElement | null>(null);
  const context = useMemo<Context>(
    () => ({
      endingId,
      onEndRequest: (session, trigger) => {
        triggerRef.current = trigger;
        setConfirming(session);
      },
    }),
    [endingId],
  );
  return (
    <>
      {endError ? <Banner tone="danger">{endError}</Banner> : null}
      <DataTable
        label="My sessions"
        columns={COLUMNS}
        rows={sessions}
        getRowId={(s) => s.id}
        context={context}
        loadingText="Loading sessions…"
        emptyText="No open sessions."
        onRetry={onRetry}
      />
      <ConfirmDialog
        isOpen={confirming !== null}
        title="End this session?"
        description={
          confirming
            ? `The browser it belongs to (${describe(confirming)}) is signed out at once.`
            : ''
        }
        confirmLabel="End session"
        onConfirm={() => {
          if (confirming) onEnd(confirming.id);
          setConfirming(null);
        }}
        onCancel={() => setConfirming(null)}
        returnFocusRef={triggerRef}
      />
    </>
  );
}
