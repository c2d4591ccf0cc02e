import {
  RECONCILE_PROVIDER_LABELS,
  type ReconcileOutcome,
  type ReconcileProvider,
} from '../../domain/reconcile';
import { Button } from '../Button';
import { ReconcileResult } from '../ReconcileResult';
import styles from './ReconcileCard.module.css';

/** Props of {@link ReconcileCard}. */
export interface ReconcileCardProps {
  provider: ReconcileProvider;
  /** The last run's outcome, or null before the first. */
  outcome: ReconcileOutcome | null;
  /** This card's action in progress, or null. */
  running: 'dry-run' | 'apply' | null;
  /** Another maintenance action runs: the buttons are disabled (one action at a time). */
  isDisabled: boolean;
  /** The operator may apply (role admin and up); otherwise Apply is disabled and says why. */
  canApply: boolean;
  /** Dry run pressed. */
  onDryRun: () => void;
  /** Apply pressed: the owner asks for confirmation, then applies. */
  onApplyRequest: () => void;
}

/**
 * The body of one provider's "Reconcile" card (docs/api.md "Reconciliation"): what it does, Dry
 * run (lists what is missing and mismatched, changes nothing), Apply (after a confirmation; admins
 * and up), and the last outcome. Pure: props in, events out.
 */
export function ReconcileCard(props: ReconcileCardProps) {
  const label = RECONCILE_PROVIDER_LABELS[props.provider];
  const busy = props.running !== null;
  const disabled = busy || props.isDisabled;
  const button = (action: 'dry-run' | 'apply', text: string, onClick: () => void) => {
    const isRunning = props.running === action;
    return (
      <Button
        className={styles.button}
        variant={action === 'apply' ? 'danger' : 'default'}
        onClick={onClick}
        disabled={disabled || (action === 'apply' && !props.canApply)}
        aria-busy={isRunning || undefined}
        aria-label={`${isRunning ? `${text}…` : text} ${label}`}
      >
        {isRunning ? `${text}…` : text}
      </Button>
    );
  };
  return (
    <div className={styles.body}>
      <p className={styles.text}>
        Compares {label}&apos;s {props.provider === 'clickbank' ? 'recent orders' : 'subscriptions'}{' '}
        with the database. Apply puts right what a missed webhook left wrong: status, dates, forum
        access.
      </p>
      <div className={styles.buttons}>
        {button('dry-run', 'Dry run', props.onDryRun)}
        {button('apply', 'Apply', props.onApplyRequest)}
      </div>
      {props.canApply ? null : (
        <p className={styles.note}>Applying needs the admin role; a dry run changes nothing.</p>
      )}
      {props.outcome ? <ReconcileResult provider={props.provider} outcome={props.outcome} /> : null}
    </div>
  );
}
