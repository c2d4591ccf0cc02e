import { DASH, formatUtcDateTime } from '../../domain/format';
import {
  RECONCILE_PROVIDER_LABELS,
  RECONCILE_ROW_LIMIT,
  reconcileSummary,
  type ReconcileOutcome,
  type ReconcileProvider,
  type ReconcileResult as Result,
} from '../../domain/reconcile';
import { JsonBlock } from '../JsonBlock';
import card from '../MaintenanceResult/MaintenanceResult.module.css';
import styles from './ReconcileResult.module.css';

/** Props of {@link ReconcileResult}. */
export interface ReconcileResultProps {
  provider: ReconcileProvider;
  /** The run's outcome. */
  outcome: ReconcileOutcome;
}

/** An ISO instant as 'YYYY-MM-DD HH:mm UTC'; other text as it is; null as a dash. */
function valueText(value: string | null): string {
  if (value === null) return DASH;
  return /^\d{4}-\d{2}-\d{2}T/.test(value) ? formatUtcDateTime(value) : value;
}

/** A table in a keyboard-reachable scroll region (axe scrollable-region-focusable). */
function Table({
  label,
  head,
  rows,
  total,
}: {
  label: string;
  head: string[];
  rows: string[][];
  total: number;
}) {
  return (
    <>
      {total > rows.length ? (
        <p className={card.muted}>
          Showing the first {rows.length} of {total.toLocaleString('en-US')}.
        </p>
      ) : null}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className={card.tableWrap} role="region" aria-label={label} tabIndex={0}>
        <table className={card.table}>
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((cells, i) => (
              <tr key={i}>
                {cells.map((cell, j) => (
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ResultBody({ result, label }: { result: Result; label: string }) {
  const nothing = result.missing.length === 0 && result.mismatched.length === 0;
  const missing = result.missing.slice(0, RECONCILE_ROW_LIMIT);
  const mismatched = result.mismatched.slice(0, RECONCILE_ROW_LIMIT);
  const notAtProvider = result.notAtProvider.slice(0, RECONCILE_ROW_LIMIT);
  return (
    <>
      <h3 className={card.title}>{result.dryRun ? `Dry run: ${label}` : `Applied: ${label}`}</h3>
      <p className={card.line}>{reconcileSummary(result)}</p>
      {result.ranAt ? <p className={card.muted}>Ran at {formatUtcDateTime(result.ranAt)}</p> : null}
      {nothing && result.notAtProviderTotal === 0 ? (
        <p className={card.line}>Nothing to fix: the database agrees with {label}.</p>
      ) : nothing ? (
        <p className={card.line}>Nothing to fix: every subscription {label} lists agrees.</p>
      ) : result.dryRun ? (
        <p className={card.muted}>Nothing was changed. Apply fixes what is listed.</p>
      ) : null}
      {missing.length > 0 ? (
        <>
          <h4 className={styles.subtitle}>Missing here ({result.missing.length})</h4>
          <Table
            label={`Subscriptions missing here (${label})`}
            head={['Email', 'Subscription', 'Provider status']}
            rows={missing.map((m) => [m.email, m.subscriptionId, m.providerStatus])}
            total={result.missing.length}
          />
        </>
      ) : null}
      {mismatched.length > 0 ? (
        <>
          <h4 className={styles.subtitle}>Mismatched ({result.mismatched.length} fields)</h4>
          <Table
            label={`Mismatched fields (${label})`}
            head={['Email', 'Subscription', 'Field', 'Ours', 'Theirs']}
            rows={mismatched.map((m) => [
              m.email,
              m.subscriptionId,
              m.field,
              valueText(m.ours),
              valueText(m.theirs),
            ])}
            total={result.mismatched.length}
          />
        </>
      ) : null}
      {notAtProvider.length > 0 ? (
        <>
          <h4 className={styles.subtitle}>
            Not at {label} ({result.notAtProviderTotal.toLocaleString('en-US')})
          </h4>
          <p className={card.muted}>
            Stored here for the store, but not in {label}&apos;s list. Reconciliation never changes
            these: check each at {label}.
          </p>
          <Table
            label={`Subscriptions not at ${label}`}
            head={['Email', 'Subscription', 'Status here']}
            rows={notAtProvider.map((m) => [m.email, m.subscriptionId, m.status])}
            total={result.notAtProviderTotal}
          />
        </>
      ) : null}
      {result.failed.length > 0 ? (
        <>
          <h4 className={styles.subtitle}>Failed ({result.failed.length})</h4>
          <ul className={styles.failures}>
            {result.failed.slice(0, RECONCILE_ROW_LIMIT).map((f, i) => (
              <li key={i}>
                {f.email ?? f.subscriptionId}: {f.error}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <JsonBlock label={`Raw result (${label})`} value={result.raw} />
    </>
  );
}

/**
 * The outcome of a reconciliation (docs/api.md "Reconciliation"): the counts, the subscriptions
 * missing here, the mismatched fields (ours against the provider's) and the stored subscriptions
 * the provider does not list (reported, never applied; at most 50 rows each), failures and the
 * raw JSON; or "not configured" with what to set; or a failure. Dry runs are
 * blue, applied runs green, not configured amber, failures red (announced as alerts). Pure.
 */
export function ReconcileResult({ provider, outcome }: ReconcileResultProps) {
  const label = RECONCILE_PROVIDER_LABELS[provider];
  const tone =
    outcome.kind === 'failure'
      ? 'danger'
      : outcome.kind === 'not_configured'
        ? 'warning'
        : outcome.result.failed.length > 0
          ? 'warning'
          : outcome.result.dryRun
            ? 'info'
            : 'success';
  return (
    <div
      className={card.result}
      data-tone={tone}
      data-kind={outcome.kind}
      role={tone === 'danger' ? 'alert' : 'status'}
    >
      {outcome.kind === 'result' ? <ResultBody result={outcome.result} label={label} /> : null}
      {outcome.kind === 'not_configured' ? (
        <>
          <h3 className={card.title}>{label} is not configured</h3>
          <p className={card.line}>{outcome.message}</p>
        </>
      ) : null}
      {outcome.kind === 'failure' ? (
        <p className={card.line}>
          <strong>Reconcile {label}: </strong>
          {outcome.message}
        </p>
      ) : null}
    </div>
  );
}
