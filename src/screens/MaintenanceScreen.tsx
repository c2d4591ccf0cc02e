/**
 * The Maintenance screen's container (§2 Maintenance, §4, §7 candidate paths, §8 messages): runs
 * one action at a time through src/api/maintenance (candidate paths tried in order, moving on only
 * on 404; all 404 → the §8 'Not Found – none of the candidate paths responded…' message) and hands
 * the outcomes to MaintenanceView. Admin stats come from GET /status; Run now applies only after
 * the 'Run expiration now?' confirmation, then refreshes the stats.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  enforceNow,
  fetchDiag,
  pingClickbank,
  pingDiscourse,
  pingLemonSqueezy,
  previewExpiration,
  reconcile,
  runExpiration,
} from '../api/maintenance';
import { ApiError } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { adminStatusQueryOptions } from '../api/stats';
import {
  maintenanceErrorMessage,
  type ClickbankPingChoice,
  type MaintenanceActionId,
  type MaintenanceOutcome,
  type PingTarget,
} from '../domain/maintenance';
import { MESSAGES, errorMessageOr } from '../domain/messages';
import type { ReconcileOutcome, ReconcileProvider } from '../domain/reconcile';
import type { AdminStats } from '../domain/stats';
import type { AsyncState } from '../domain/types';
import { MaintenanceView, type DiagState } from '../components/MaintenanceView';
import { useOperator } from './useOperator';

/** The /maintenance route's screen. */
export function MaintenanceScreen() {
  const queryClient = useQueryClient();
  const stats = useQuery(adminStatusQueryOptions());
  const operator = useOperator();
  const [busyAction, setBusyAction] = useState<MaintenanceActionId | null>(null);
  const busyRef = useRef(false);
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const [expirationOutcome, setExpirationOutcome] = useState<MaintenanceOutcome | null>(null);
  const [diag, setDiag] = useState<DiagState>({ status: 'idle' });
  const [pingOutcomes, setPingOutcomes] = useState<Partial<Record<PingTarget, MaintenanceOutcome>>>(
    {},
  );
  const [clickbankChoice, setClickbankChoice] = useState<ClickbankPingChoice>('default');
  const [enforceEmail, setEnforceEmail] = useState('');
  const [enforceOutcome, setEnforceOutcome] = useState<MaintenanceOutcome | null>(null);
  const [reconcileOutcomes, setReconcileOutcomes] = useState<
    Partial<Record<ReconcileProvider, ReconcileOutcome>>
  >({});
  const [reconcileConfirm, setReconcileConfirm] = useState<ReconcileProvider | null>(null);

  /** Runs `work` as the one action in progress (§4); a second start while one runs is ignored. */
  async function run(action: MaintenanceActionId, work: () => Promise<void>) {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusyAction(action);
    try {
      await work();
    } finally {
      busyRef.current = false;
      setBusyAction(null);
    }
  }

  const failure = (action: MaintenanceActionId, error: unknown): MaintenanceOutcome => ({
    kind: 'failure',
    action,
    message: maintenanceErrorMessage(error),
  });

  const handleDryRun = () =>
    run('dry-run', async () => {
      try {
        setExpirationOutcome({ kind: 'expiration', result: await previewExpiration() });
      } catch (error) {
        setExpirationOutcome(failure('dry-run', error));
      }
    });

  const handleRunNowConfirm = () => {
    setIsConfirmOpen(false);
    void run('run-now', async () => {
      try {
        setExpirationOutcome({ kind: 'expiration', result: await runExpiration() });
      } catch (error) {
        setExpirationOutcome(failure('run-now', error));
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.status() });
    });
  };

  const handleLoadDiag = () =>
    run('diag', async () => {
      try {
        const data = await queryClient.fetchQuery({
          queryKey: queryKeys.maintenance.diag(),
          queryFn: ({ signal }) => fetchDiag(signal),
          staleTime: 0,
        });
        setDiag({ status: 'ready', data });
      } catch (error) {
        setDiag({ status: 'error', message: maintenanceErrorMessage(error) });
      }
    });

  const handlePing = (target: PingTarget) => {
    const action: MaintenanceActionId = `ping-${target}`;
    void run(action, async () => {
      let outcome: MaintenanceOutcome;
      try {
        const summary =
          target === 'discourse'
            ? await pingDiscourse()
            : target === 'lemonsqueezy'
              ? await pingLemonSqueezy()
              : await pingClickbank(clickbankChoice === 'default' ? null : clickbankChoice);
        outcome = { kind: 'ping', target, summary };
      } catch (error) {
        outcome = failure(action, error);
      }
      setPingOutcomes((previous) => ({ ...previous, [target]: outcome }));
    });
  };

  const handleEnforce = () => {
    const email = enforceEmail.trim();
    if (email === '') return;
    void run('enforce', async () => {
      try {
        setEnforceOutcome({ kind: 'enforce', email, answer: await enforceNow(email) });
      } catch (error) {
        setEnforceOutcome(failure('enforce', error));
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.status() });
    });
  };

  const handleReconcile = (provider: ReconcileProvider, dryRun: boolean) =>
    run(`reconcile-${provider}-${dryRun ? 'dry-run' : 'apply'}`, async () => {
      let outcome: ReconcileOutcome;
      try {
        outcome = { kind: 'result', result: await reconcile(provider, dryRun) };
      } catch (error) {
        const payload = error instanceof ApiError ? error.payload : null;
        const notConfigured =
          payload !== null &&
          typeof payload === 'object' &&
          (payload as { error?: unknown }).error === 'not_configured';
        outcome = notConfigured
          ? { kind: 'not_configured', message: maintenanceErrorMessage(error) }
          : { kind: 'failure', message: maintenanceErrorMessage(error) };
      }
      setReconcileOutcomes((previous) => ({ ...previous, [provider]: outcome }));
      if (!dryRun) void queryClient.invalidateQueries({ queryKey: queryKeys.status() });
    });

  let adminStats: AsyncState<AdminStats>;
  switch (stats.status) {
    case 'pending':
      adminStats = { status: 'loading' };
      break;
    case 'error':
      adminStats = { status: 'error', message: errorMessageOr(stats.error, MESSAGES.stats) };
      break;
    case 'success':
      adminStats = { status: 'ready', data: stats.data };
      break;
  }

  return (
    <MaintenanceView
      busyAction={busyAction}
      isConfirmOpen={isConfirmOpen}
      expirationOutcome={expirationOutcome}
      diag={diag}
      adminStats={adminStats}
      pingOutcomes={pingOutcomes}
      clickbankChoice={clickbankChoice}
      enforceEmail={enforceEmail}
      enforceOutcome={enforceOutcome}
      onDryRun={() => void handleDryRun()}
      onRunNowRequest={() => {
        if (!busyRef.current) setIsConfirmOpen(true);
      }}
      onRunNowConfirm={handleRunNowConfirm}
      onRunNowCancel={() => setIsConfirmOpen(false)}
      onLoadDiag={() => void handleLoadDiag()}
      onRefreshStats={() => void stats.refetch()}
      onPing={handlePing}
      onClickbankChoiceChange={setClickbankChoice}
      onEnforceEmailChange={setEnforceEmail}
      onEnforce={handleEnforce}
      reconcileOutcomes={reconcileOutcomes}
      reconcileConfirm={reconcileConfirm}
      canApplyReconcile={operator.can('admin')}
      adminBlockedReason={operator.blockReason('admin')}
      supportBlockedReason={operator.blockReason('support')}
      onReconcileDryRun={(provider) => void handleReconcile(provider, true)}
      onReconcileApplyRequest={(provider) => {
        if (!busyRef.current) setReconcileConfirm(provider);
      }}
      onReconcileApplyConfirm={() => {
        const provider = reconcileConfirm;
        setReconcileConfirm(null);
        if (provider) void handleReconcile(provider, false);
      }}
      onReconcileApplyCancel={() => setReconcileConfirm(null)}
    />
  );
}
