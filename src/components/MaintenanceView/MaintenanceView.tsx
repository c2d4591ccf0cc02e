import { useId, type ReactNode } from 'react';
import { formatCount, formatCurrency, formatOneDecimal } from '../../domain/format';
import {
  flattenDiag,
  type ClickbankPingChoice,
  type MaintenanceActionId,
  type MaintenanceOutcome,
  type PingTarget,
} from '../../domain/maintenance';
import {
  RECONCILE_PROVIDER_LABELS,
  RECONCILE_PROVIDERS,
  type ReconcileOutcome,
  type ReconcileProvider,
} from '../../domain/reconcile';
import type { AdminStats } from '../../domain/stats';
import type { AsyncState } from '../../domain/types';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { StatCard } from '../Card';
import { ConfirmDialog } from '../ConfirmDialog';
import { DetailList } from '../DetailList';
import { SelectField, TextField } from '../Field';
import { JsonBlock } from '../JsonBlock';
import { MaintenanceResult } from '../MaintenanceResult';
import { ReconcileCard } from '../ReconcileCard';
import styles from './MaintenanceView.module.css';

/** The diagnostics card's content: not loaded yet, failed (§8 message), or the answer. */
export type DiagState =
  { status: 'idle' } | { status: 'error'; message: string } | { status: 'ready'; data: unknown };

/** Props of {@link MaintenanceView}. */
export interface MaintenanceViewProps {
  /** The action running now (its button shows busy; every action button is disabled), or null (§4). */
  busyAction: MaintenanceActionId | null;
  /** Whether the 'Run expiration now?' confirmation is open. */
  isConfirmOpen: boolean;
  /** The last dry run or run result of the 'Expire cancelled access' card, or a failure. */
  expirationOutcome: MaintenanceOutcome | null;
  /** GET /maintenance/diag, loaded on demand. */
  diag: DiagState;
  /** GET /status (§3 Admin stats). */
  adminStats: AsyncState<AdminStats>;
  /** The last answer (or failure) of each ping. */
  pingOutcomes: Partial<Record<PingTarget, MaintenanceOutcome>>;
  /** The marketplace ping's variant (§2: default, secret or developer). */
  clickbankChoice: ClickbankPingChoice;
  /** The Enforce now email field (controlled). */
  enforceEmail: string;
  /** The last Enforce now answer or failure. */
  enforceOutcome: MaintenanceOutcome | null;
  /** Dry run pressed: preview the expiration. */
  onDryRun: () => void;
  /** Run now pressed: the owner opens the confirmation. */
  onRunNowRequest: () => void;
  /** 'Yes, run now' pressed: the owner closes the confirmation and applies. */
  onRunNowConfirm: () => void;
  /** Cancel / Escape in the confirmation: nothing is applied. */
  onRunNowCancel: () => void;
  /** Load / refresh the diagnostics. */
  onLoadDiag: () => void;
  /** Reload the admin stats. */
  onRefreshStats: () => void;
  /** A ping button pressed. */
  onPing: (target: PingTarget) => void;
  /** The marketplace variant changed. */
  onClickbankChoiceChange: (choice: ClickbankPingChoice) => void;
  /** The Enforce now email changed (raw text). */
  onEnforceEmailChange: (value: string) => void;
  /** Enforce now submitted (the email is not blank). */
  onEnforce: () => void;
  /** The last reconciliation outcome of each provider. */
  reconcileOutcomes: Partial<Record<ReconcileProvider, ReconcileOutcome>>;
  /** The provider whose 'Apply reconciliation?' confirmation is open, or null. */
  reconcileConfirm: ReconcileProvider | null;
  /** The operator may apply a reconciliation (role admin and up). */
  canApplyReconcile: boolean;
  /**
   * Why the operator's role may not run the expiration, pings and diagnostics (admin and up,
   * docs/api.md "Roles"), or null: those buttons are then disabled and a note says why.
   */
  adminBlockedReason?: string | null;
  /** Why the operator's role may not use Enforce now (support and up), or null. */
  supportBlockedReason?: string | null;
  /** A reconcile card's Dry run pressed. */
  onReconcileDryRun: (provider: ReconcileProvider) => void;
  /** A reconcile card's Apply pressed: the owner opens the confirmation. */
  onReconcileApplyRequest: (provider: ReconcileProvider) => void;
  /** 'Yes, apply' pressed in the confirmation. */
  onReconcileApplyConfirm: () => void;
  /** Cancel / Escape in the confirmation: nothing is applied. */
  onReconcileApplyCancel: () => void;
}

const CLICKBANK_CHOICES = [
  { value: 'default', label: 'default (both)' },
  { value: 'secret', label: 'secret' },
  { value: 'developer', label: 'developer' },
] as const;

/** One card: a section with its heading. */
function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={styles.card} aria-labelledby={id}>
      <h2 id={id} className={styles.cardTitle}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The §3 Admin stats as cards: MRR and ARR as whole numbers (§9), the rest as counts. */
function AdminStatsBody({ state }: { state: AsyncState<AdminStats> }) {
  switch (state.status) {
    case 'loading':
      return (
        <p className={styles.text} role="status">
          Loading stats…
        </p>
      );
    case 'error':
      return <Banner tone="danger">Error: {state.message}</Banner>;
    case 'empty':
      return <p className={styles.text}>No stats available.</p>;
    case 'ready': {
      const s = state.data;
      const cards: Array<[string, string]> = [
        ['db_ok', s.dbOk === null ? '—' : s.dbOk ? 'yes' : 'no'],
        ['Active (Total)', formatCount(s.activeTotal)],
        ['Active (Monthly)', formatCount(s.activeMonthly)],
        ['Active (Yearly)', formatCount(s.activeYearly)],
        ['Scheduled Cancellations', formatCount(s.scheduledCancellations)],
        ['Avg Days Remaining', formatOneDecimal(s.avgDaysRemaining)],
        ['MRR', formatCurrency(s.mrrCents, 'USD', 0)],
        ['ARR', formatCurrency(s.arrCents, 'USD', 0)],
        ['pending_expire', formatCount(s.pendingExpire)],
        ['webhook_dedup_rows', formatCount(s.webhookDedupRows)],
      ];
      return (
        <div className={styles.stats}>
          {cards.map(([label, value]) => (
            <StatCard key={label} label={label} value={value} />
          ))}
        </div>
      );
    }
  }
}

/**
 * The Maintenance screen's view (§2 Maintenance, §4, §9): an open help box; the 'Expire cancelled
 * access' card (Dry run, Run now behind the 'Run expiration now?' confirmation); Diagnostics as
 * key/value pairs plus the raw JSON; the admin stats; pings to the forum, LemonSqueezy and
 * ClickBank (default / secret / developer), each with its one-line result; Enforce now for one
 * email; a Reconcile card per provider (Dry run, Apply behind a confirmation). While an action runs every action button is disabled and the running one is busy.
 * Pure: props in, events out.
 */
export function MaintenanceView(props: MaintenanceViewProps) {
  const { busyAction, diag } = props;
  const headingId = useId();
  const isBusy = busyAction !== null;
  const adminBlocked = props.adminBlockedReason ?? null;
  const supportBlocked = props.supportBlockedReason ?? null;

  const actionButton = (
    action: MaintenanceActionId,
    label: string,
    onClick: () => void,
    variant: 'default' | 'primary' | 'danger' = 'default',
  ) => {
    const isRunning = busyAction === action;
    return (
      <Button
        className={styles.button}
        variant={variant}
        onClick={onClick}
        disabled={isBusy || adminBlocked !== null}
        title={adminBlocked ?? undefined}
        aria-busy={isRunning || undefined}
        data-running={isRunning || undefined}
      >
        {isRunning ? `${label}…` : label}
      </Button>
    );
  };

  const pingRow = (target: PingTarget) => {
    const outcome = props.pingOutcomes[target];
    return outcome ? <MaintenanceResult key={target} outcome={outcome} /> : null;
  };

  return (
    <section className={styles.view} aria-labelledby={headingId} aria-busy={isBusy}>
      <h1 id={headingId} className={styles.heading}>
        Maintenance
      </h1>
      <details className={styles.help} open>
        <summary>How these tools work</summary>
        <ul>
          <li>
            <strong>Dry run</strong> lists the users whose cancelled access is due to expire,
            without changing anything. <strong>Run now</strong> asks for confirmation, then applies
            exactly that: a dry run right after shows 0.
          </li>
          <li>
            <strong>Diagnostics</strong> shows versions, database, counts and which integrations are
            configured (never their secrets).
          </li>
          <li>
            <strong>Pings</strong> check the forum, LemonSqueezy and ClickBank with the configured
            keys; ClickBank&apos;s <em>secret</em> variant checks the Instant Notification key
            locally.
          </li>
          <li>
            <strong>Reconcile</strong> compares a provider&apos;s own list with the database;{' '}
            <strong>Apply</strong> puts right what missed webhooks left wrong.
          </li>
          <li>Only one action runs at a time; the buttons are disabled meanwhile.</li>
        </ul>
      </details>

      {adminBlocked || supportBlocked ? (
        <ul className={styles.roleNotes} aria-label="What your role cannot do">
          {[adminBlocked, supportBlocked]
            .filter((note): note is string => note !== null)
            .map((note) => (
              <li key={note}>{note}</li>
            ))}
        </ul>
      ) : null}

      <div className={styles.grid}>
        <Card title="Expire cancelled access">
          <p className={styles.text}>
            Ends forum access for users whose cancellation date has passed.
          </p>
          <div className={styles.buttons}>
            {actionButton('dry-run', 'Dry run', props.onDryRun)}
            {actionButton('run-now', 'Run now', props.onRunNowRequest, 'danger')}
          </div>
          {props.expirationOutcome ? <MaintenanceResult outcome={props.expirationOutcome} /> : null}
        </Card>

        {RECONCILE_PROVIDERS.map((provider) => {
          const running =
            busyAction === `reconcile-${provider}-dry-run`
              ? 'dry-run'
              : busyAction === `reconcile-${provider}-apply`
                ? 'apply'
                : null;
          return (
            <Card key={provider} title={`Reconcile ${RECONCILE_PROVIDER_LABELS[provider]}`}>
              <ReconcileCard
                provider={provider}
                outcome={props.reconcileOutcomes[provider] ?? null}
                running={running}
                isDisabled={isBusy || adminBlocked !== null}
                canApply={props.canApplyReconcile}
                onDryRun={() => props.onReconcileDryRun(provider)}
                onApplyRequest={() => props.onReconcileApplyRequest(provider)}
              />
            </Card>
          );
        })}

        <Card title="Pings">
          <div className={styles.buttons}>
            {actionButton('ping-discourse', 'Ping forum', () => props.onPing('discourse'))}
            {actionButton('ping-lemonsqueezy', 'Ping LemonSqueezy', () =>
              props.onPing('lemonsqueezy'),
            )}
          </div>
          <div className={styles.buttons}>
            <SelectField
              label="ClickBank variant"
              value={props.clickbankChoice}
              options={CLICKBANK_CHOICES}
              onValueChange={(v) => props.onClickbankChoiceChange(v as ClickbankPingChoice)}
              disabled={isBusy || adminBlocked !== null}
            />
            {actionButton('ping-clickbank', 'Ping ClickBank', () => props.onPing('clickbank'))}
          </div>
          <div className={styles.pings}>
            {pingRow('discourse')}
            {pingRow('lemonsqueezy')}
            {pingRow('clickbank')}
          </div>
        </Card>

        <Card title="Enforce now">
          <p className={styles.text}>Applies one user&apos;s due access state now.</p>
          <form
            className={styles.buttons}
            onSubmit={(event) => {
              event.preventDefault();
              if (!isBusy && !supportBlocked && props.enforceEmail.trim() !== '') props.onEnforce();
            }}
          >
            <TextField
              label="Email"
              type="email"
              value={props.enforceEmail}
              onValueChange={props.onEnforceEmailChange}
              autoComplete="off"
              spellCheck={false}
            />
            <Button
              className={styles.button}
              type="submit"
              disabled={isBusy || supportBlocked !== null || props.enforceEmail.trim() === ''}
              title={supportBlocked ?? undefined}
              aria-busy={busyAction === 'enforce' || undefined}
            >
              {busyAction === 'enforce' ? 'Enforce now…' : 'Enforce now'}
            </Button>
          </form>
          {props.enforceOutcome ? <MaintenanceResult outcome={props.enforceOutcome} /> : null}
        </Card>

        <Card title="Admin stats">
          <div className={styles.buttons}>
            <Button size="small" onClick={props.onRefreshStats} disabled={isBusy}>
              Refresh stats
            </Button>
          </div>
          <AdminStatsBody state={props.adminStats} />
        </Card>

        <Card title="Diagnostics">
          <div className={styles.buttons}>
            {actionButton(
              'diag',
              diag.status === 'ready' ? 'Refresh diagnostics' : 'Load diagnostics',
              props.onLoadDiag,
            )}
          </div>
          {diag.status === 'idle' ? (
            <p className={styles.text}>Not loaded yet.</p>
          ) : diag.status === 'error' ? (
            <MaintenanceResult
              outcome={{ kind: 'failure', action: 'diag', message: diag.message }}
            />
          ) : (
            <>
              <DetailList
                items={flattenDiag(diag.data).map((pair) => ({
                  label: pair.key,
                  value: pair.value,
                  kind: 'code' as const,
                }))}
              />
              <JsonBlock label="Raw diagnostics" value={diag.data} />
            </>
          )}
        </Card>
      </div>

      <ConfirmDialog
        isOpen={props.isConfirmOpen}
        title="Run expiration now?"
        description="Users whose cancelled access is due lose forum access now. A dry run shows who first."
        confirmLabel="Yes, run now"
        onConfirm={props.onRunNowConfirm}
        onCancel={props.onRunNowCancel}
      />
      <ConfirmDialog
        isOpen={props.reconcileConfirm !== null}
        title={`Apply the ${props.reconcileConfirm ? RECONCILE_PROVIDER_LABELS[props.reconcileConfirm] : ''} reconciliation?`}
        description="The provider's state is applied to every missing or mismatched subscription: status, dates and forum access. A dry run shows what first."
        confirmLabel="Yes, apply"
        onConfirm={props.onReconcileApplyConfirm}
        onCancel={props.onReconcileApplyCancel}
      />
    </section>
  );
}
