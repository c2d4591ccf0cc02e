import { useMemo, useRef, useState } from 'react';
import {
  OPERATOR_STATUS_LABELS,
  ROLE_DESCRIPTIONS,
  type OperatorStatus,
  type OperatorSummary,
} from '../../domain/account';
import { formatUtcDateTime } from '../../domain/format';
import { isRole, ROLE_LABELS, ROLES, type Role } from '../../domain/roles';
import type { AsyncState, Tone } from '../../domain/types';
import { Badge } from '../Badge';
import { Button } from '../Button';
import { ConfirmDialog } from '../ConfirmDialog';
import {
  actionsColumn,
  DataTable,
  textColumn,
  utcColumn,
  type DataTableColumn,
} from '../DataTable';
import styles from './OperatorsTable.module.css';

/** A change to one operator (PATCH /operators/:id). */
export type OperatorChange = { role: Role } | { disabled: boolean };

/** Props of {@link OperatorsTable}. */
export interface OperatorsTableProps {
  /** The operators (GET /operators), owners first. */
  operators: AsyncState<readonly OperatorSummary[]>;
  /** The signed-in operator's id: their row is marked "(you)" and its changes warn. */
  selfId: number | null;
  /** The operator whose change is being sent, or null. */
  busyId: number | null;
  /** A confirmed change to operator `operator`. */
  onChange: (operator: OperatorSummary, change: OperatorChange) => void;
  /** Reload after an error. */
  onRetry: () => void;
}

/** What the cells read from the table. */
interface Context {
  selfId: number | null;
  busyId: number | null;
  onRequest: (operator: OperatorSummary, change: OperatorChange, trigger: HTMLElement) => void;
}

const STATUS_TONES: Record<OperatorStatus, Tone> = {
  active: 'success',
  invited: 'warning',
  disabled: 'neutral',
};

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

const COLUMNS: readonly DataTableColumn<OperatorSummary, string, Context>[] = [
  {
    id: 'name',
    header: 'Name',
    width: '11rem',
    wrap: true,
    cell: (o, { selfId }) => (o.id === selfId ? `${o.name} (you)` : o.name),
  },
  {
    ...textColumn('email', 'Email', (o) => o.email, { width: '15rem', sortKey: null }),
    wrap: true,
  },
  {
    id: 'role',
    header: 'Role',
    width: '8rem',
    cell: (o, { busyId, onRequest }) => (
      <select
        className={styles.select}
        aria-label={`Role for ${o.name}`}
        value={o.role}
        disabled={busyId !== null}
        onChange={(event) => {
          if (isRole(event.target.value)) {
            onRequest(o, { role: event.target.value }, event.currentTarget);
          }
        }}
      >
        {ROLE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    width: '10rem',
    wrap: true,
    cell: (o) => (
      <span className={styles.status}>
        <Badge tone={STATUS_TONES[o.status]}>{OPERATOR_STATUS_LABELS[o.status]}</Badge>
        {o.status === 'invited' && o.inviteExpiresAt ? (
          <span className={styles.note}>
            Link expires{' '}
            <time dateTime={o.inviteExpiresAt}>{formatUtcDateTime(o.inviteExpiresAt)}</time> UTC
          </span>
        ) : null}
      </span>
    ),
  },
  {
    id: 'totp',
    header: 'Two-factor',
    width: '8rem',
    cell: (o) => (
      <Badge tone={o.totpEnabled ? 'success' : 'neutral'}>{o.totpEnabled ? 'On' : 'Off'}</Badge>
    ),
  },
  {
    ...utcColumn('last_seen', 'Last seen (UTC)', (o) => o.lastSeenAt, {
      width: '10rem',
      sortKey: null,
    }),
  },
  actionsColumn<OperatorSummary, string, Context>((o, { busyId, onRequest }) => {
    const disabled = o.status === 'disabled';
    return (
      <Button
        size="small"
        variant={disabled ? 'default' : 'danger'}
        disabled={busyId !== null}
        aria-busy={busyId === o.id || undefined}
        aria-label={disabled ? `Enable ${o.name}` : `Disable ${o.name}`}
        onClick={(event) => onRequest(o, { disabled: !disabled }, event.currentTarget)}
      >
        {disabled ? 'Enable' : 'Disable'}
      </Button>
    );
  }, '7rem'),
];

/** The confirmation dialog's texts for a pending change. */
function confirmCopy(operator: OperatorSummary, change: OperatorChange, isSelf: boolean) {
  if ('role' in change) {
    const losesOwner = isSelf && operator.role === 'owner' && change.role !== 'owner';
    return {
      title: `Make ${operator.name} ${ROLE_LABELS[change.role]}?`,
      description: `${ROLE_LABELS[change.role]}: ${ROLE_DESCRIPTIONS[change.role]}${
        losesOwner ? ' This is your own account: you will no longer manage operators.' : ''
      }`,
      confirmLabel: 'Change role',
      tone: 'primary' as const,
    };
  }
  if (change.disabled) {
    return {
      title: `Disable ${operator.name}?`,
      description: `Disabling ends all of ${operator.name}'s sessions now, and they cannot sign in until an owner enables them again.${
        isSelf ? ' This is your own account: you will be signed out at once.' : ''
      }`,
      confirmLabel: 'Disable now',
      tone: 'danger' as const,
    };
  }
  return {
    title: `Enable ${operator.name}?`,
    description: `${operator.name} can sign in again with their password.`,
    confirmLabel: 'Enable',
    tone: 'primary' as const,
  };
}

/**
 * The operators (owners only): name, email, role (a select per row), status, two-factor
 * and last seen, with Disable/Enable per row. Every change asks first; a role change reverts on
 * Cancel, since the select shows the server's value.
 */
export function OperatorsTable({
  operators,
  selfId,
  busyId,
  onChange,
  onRetry,
}: OperatorsTableProps) {
  const [pending, setPending] = useState<{
    operator: OperatorSummary;
    change: OperatorChange;
  } | null>(null);
  // Focus goes back to the row's select or button when the dialog closes.
  const triggerRef = useRef<HTMLElement | null>(null);
  const context = useMemo<Context>(
    () => ({
      selfId,
      busyId,
      onRequest: (operator, change, trigger) => {
        triggerRef.current = trigger;
        setPending({ operator, change });
      },
    }),
    [selfId, busyId],
  );
  const copy = pending
    ? confirmCopy(pending.operator, pending.change, pending.operator.id === selfId)
    : null;
  return (
    <>
      <DataTable
        label="Operators"
        columns={COLUMNS}
        rows={operators}
        getRowId={(o) => String(o.id)}
        context={context}
        loadingText="Loading operators…"
        emptyText="No operators."
        onRetry={onRetry}
      />
      <ConfirmDialog
        isOpen={pending !== null}
        title={copy?.title ?? ''}
        description={copy?.description ?? ''}
        confirmLabel={copy?.confirmLabel ?? ''}
        tone={copy?.tone}
        onConfirm={() => {
          if (pending) onChange(pending.operator, pending.change);
          setPending(null);
        }}
        onCancel={() => setPending(null)}
        returnFocusRef={triggerRef}
      />
    </>
  );
}
