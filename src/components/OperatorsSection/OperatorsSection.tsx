import { useId } from 'react';
import type { InviteOperatorInput, OperatorList, OperatorSummary } from '../../domain/account';
import type { AsyncState } from '../../domain/types';
import { Banner } from '../Banner';
import { InviteOperatorForm, type InviteState } from '../InviteOperatorForm';
import { OperatorsTable, type OperatorChange } from '../OperatorsTable';
import { SettingsCard } from '../SettingsCard';
import styles from './OperatorsSection.module.css';

/** The outcome of the last operator change or policy change, in words. */
export interface OperatorsNotice {
  tone: 'success' | 'danger';
  message: string;
}

/** Props of {@link OperatorsSection}. */
export interface OperatorsSectionProps {
  /** GET /operators: the operators and the two-factor policy. */
  list: AsyncState<OperatorList>;
  /** The signed-in operator's id, or null when unknown. */
  selfId: number | null;
  /** The operator whose change is being sent, or null. */
  busyId: number | null;
  /** The last change's outcome (e.g. the server's LAST_OWNER message), or null. */
  notice: OperatorsNotice | null;
  /** The policy switch is being saved. */
  isPolicySaving: boolean;
  /** The invite form's state. */
  invite: InviteState;
  /** A confirmed change to one operator (PATCH /operators/:id). */
  onChange: (operator: OperatorSummary, change: OperatorChange) => void;
  /** The policy switch was flipped (PUT /auth/policy). */
  onPolicyChange: (requireTotp: boolean) => void;
  /** "Invite operator" was pressed (POST /operators). */
  onInvite: (values: InviteOperatorInput) => void;
  /** Reload the operators after an error. */
  onRetry: () => void;
  /** How Copy writes to the clipboard (the Clipboard API unless a story passes its own). */
  onCopy?: (text: string) => Promise<void>;
}

/**
 * Operators (owners only): the team with each one's role, status and two-factor
 * sign-in, the switch that requires two-factor sign-in of everyone, and the invite form.
 */
export function OperatorsSection({
  list,
  selfId,
  busyId,
  notice,
  isPolicySaving,
  invite,
  onChange,
  onPolicyChange,
  onInvite,
  onRetry,
  onCopy,
}: OperatorsSectionProps) {
  const switchId = useId();
  const switchHintId = useId();
  const rows: AsyncState<readonly OperatorSummary[]> =
    list.status === 'ready'
      ? list.data.operators.length > 0
        ? { status: 'ready', data: list.data.operators }
        : { status: 'empty' }
      : list;
  return (
    <>
      <SettingsCard
        title="Team"
        description="Who can sign in to the console, and what each one may do. Disabling someone ends their sessions at once."
      >
        {list.status === 'ready' ? (
          <div className={styles.switchRow}>
            <input
              id={switchId}
              type="checkbox"
              role="switch"
              className={styles.switch}
              checked={list.data.requireTotp}
              disabled={isPolicySaving}
              aria-describedby={switchHintId}
              onChange={(event) => onPolicyChange(event.target.checked)}
            />
            <div className={styles.switchText}>
              <label htmlFor={switchId} className={styles.switchLabel}>
                Require two-factor sign-in for every operator
              </label>
              <p className={styles.hint} id={switchHintId}>
                Operators without it are sent to set it up right after they sign in, before anything
                else.
              </p>
            </div>
          </div>
        ) : null}
        {notice ? <Banner tone={notice.tone}>{notice.message}</Banner> : null}
        <OperatorsTable
          operators={rows}
          selfId={selfId}
          busyId={busyId}
          onChange={onChange}
          onRetry={onRetry}
        />
      </SettingsCard>
      <SettingsCard
        title="Invite an operator"
        description="The invitee sets their own password from a one-time link that you hand over."
      >
        <InviteOperatorForm state={invite} onSubmit={onInvite} onCopy={onCopy} />
      </SettingsCard>
    </>
  );
}
