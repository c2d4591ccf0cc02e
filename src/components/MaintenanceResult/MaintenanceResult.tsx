import { DASH, formatUtcDateTime } from '../../domain/format';
import {
  MAINTENANCE_DETAIL_LIMIT,
  PING_TARGET_LABELS,
  SAMPLE_EMAILS_LIMIT,
  summarisePing,
  type MaintenanceDetailRow,
  type MaintenanceOutcome,
  type MaintenanceResult as ExpirationResult,
  type PingTarget,
} from '../../domain/maintenance';
import { JsonBlock } from '../JsonBlock';
import styles from './MaintenanceResult.module.css';

/** Props of {@link MaintenanceResult}. */
export interface MaintenanceResultProps {
  /** The finished action's outcome (§2 Maintenance result view). */
  outcome: MaintenanceOutcome;
}

/**
 * The forum column's text of a detail row: the discourse outcome in a few words ('queued (the
 * server retries)' while the server's forum outbox still runs it), or a dash.
 */
function forumText(row: MaintenanceDetailRow): string {
  const d = row.discourse;
  if (d === null || typeof d !== 'object') return DASH;
  const o = d as Record<string, unknown>;
  if (o.queued === true) return 'queued (the server retries)';
  if (o.skipped === true) return `skipped: ${String(o.reason ?? '')}`.trim();
  if (o.ok === true)
    return o.invited === true
      ? 'invited'
      : `ok${typeof o.status === 'number' ? ` (${o.status})` : ''}`;
  if (o.ok === false)
    return `error${typeof o.status === 'number' ? ` ${o.status}` : ''}: ${String(o.error ?? '')}`;
  return DASH;
}

function ExpirationBody({ result }: { result: ExpirationResult }) {
  const isPreview = result.dryRun !== false;
  const count = result.affectedCount ?? result.details.length;
  const shown = result.details.slice(0, MAINTENANCE_DETAIL_LIMIT);
  const examples = result.sampleEmails.slice(0, SAMPLE_EMAILS_LIMIT);
  const hasForum = shown.some((row) => row.discourse != null);
  const hasExpiry = shown.some((row) => typeof row.expires_at === 'string');
  return (
    <>
      <h3 className={styles.title}>{isPreview ? 'Dry run preview' : 'Expiration applied'}</h3>
      <p className={styles.line}>
        {isPreview
          ? `${count} ${count === 1 ? 'user' : 'users'} would lose access.`
          : `${result.processed ?? count} processed · ${count} affected.`}
      </p>
      {count === 0 ? (
        <p className={styles.muted}>
          {isPreview ? 'No cancelled access is due to expire.' : 'Nothing was due.'}
        </p>
      ) : null}
      {examples.length > 0 ? <p className={styles.line}>Examples: {examples.join(', ')}</p> : null}
      {shown.length > 0 ? (
        <>
          {result.details.length > shown.length ? (
            <p className={styles.muted}>
              Showing the first {shown.length} of {result.details.length} rows.
            </p>
          ) : null}
          {/* A scrollable region must be reachable by keyboard (axe scrollable-region-focusable). */}
          <div
            className={styles.tableWrap}
            role="region"
            aria-label={isPreview ? 'Users the run would expire' : 'Users expired'}
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
            tabIndex={0}
          >
            <table className={styles.table}>
              <caption className="visually-hidden">
                {isPreview ? 'Users the run would expire' : 'Users expired'}
              </caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Email</th>
                  {hasExpiry ? <th scope="col">Expired at (UTC)</th> : null}
                  {hasForum ? <th scope="col">Forum</th> : null}
                </tr>
              </thead>
              <tbody>
                {shown.map((row, index) => (
                  <tr key={`${row.email ?? ''}-${index}`}>
                    <td>{index + 1}</td>
                    <td>{row.email ?? DASH}</td>
                    {hasExpiry ? (
                      <td>
                        {typeof row.expires_at === 'string'
                          ? formatUtcDateTime(row.expires_at)
                          : DASH}
                      </td>
                    ) : null}
                    {hasForum ? <td>{forumText(row)}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <JsonBlock label="Raw result" value={result.raw} />
    </>
  );
}

/** The tone of an outcome: failures red, ping ok green / not ok amber, previews blue, runs green. */
function toneOf(outcome: MaintenanceOutcome): 'success' | 'danger' | 'info' | 'warning' {
  switch (outcome.kind) {
    case 'failure':
      return 'danger';
    case 'ping':
      return outcome.summary.ok === true || outcome.summary.success === true
        ? 'success'
        : 'warning';
    case 'expiration':
      return outcome.result.dryRun === false ? 'success' : 'info';
    case 'enforce':
      return 'success';
  }
}

/** A one-line summary of the enforce-now answer: mg_status, expires_at, action, forum. */
function enforceLine(answer: unknown): string {
  const a = (answer !== null && typeof answer === 'object' ? answer : {}) as Record<
    string,
    unknown
  >;
  const parts: string[] = [];
  if (typeof a.mg_status === 'string') parts.push(`mg_status: ${a.mg_status}`);
  if (typeof a.action === 'string')
    parts.push(a.action === 'expired' ? 'access expired now' : 'nothing was due');
  if (a.discourse && typeof a.discourse === 'object') {
    parts.push(`forum: ${forumText({ email: null, discourse: a.discourse })}`);
  }
  return parts.length > 0 ? parts.join(' · ') : 'Done';
}

/**
 * The result of one maintenance action (§2 Maintenance, §9): an expiration preview or run (counts,
 * at most 5 example emails, at most the first 50 detail rows, the raw JSON), a ping's one-line
 * summary, an enforce-now summary, or a failure line ('ping failed: {reason}' for pings, the §8
 * message otherwise). Announced politely; failures as alerts. Pure: props in, nothing out.
 */
export function MaintenanceResult({ outcome }: MaintenanceResultProps) {
  const tone = toneOf(outcome);
  const pingTarget =
    outcome.kind === 'failure' && outcome.action.startsWith('ping-')
      ? (outcome.action.slice('ping-'.length) as PingTarget)
      : null;
  return (
    <div
      className={styles.result}
      data-tone={tone}
      data-kind={outcome.kind}
      role={tone === 'danger' ? 'alert' : 'status'}
    >
      {outcome.kind === 'expiration' ? <ExpirationBody result={outcome.result} /> : null}
      {outcome.kind === 'ping' ? (
        <p className={styles.line}>
          <strong>{PING_TARGET_LABELS[outcome.target]}:</strong> {summarisePing(outcome.summary)}
        </p>
      ) : null}
      {outcome.kind === 'enforce' ? (
        <>
          <p className={styles.line}>
            <strong>Enforce now for {outcome.email}:</strong> {enforceLine(outcome.answer)}
          </p>
          <JsonBlock label="Raw answer" value={outcome.answer} />
        </>
      ) : null}
      {outcome.kind === 'failure' ? (
        <p className={styles.line}>
          {pingTarget ? <strong>{PING_TARGET_LABELS[pingTarget]}: </strong> : null}
          <span>{pingTarget ? `ping failed: ${outcome.message}` : outcome.message}</span>
        </p>
      ) : null}
    </div>
  );
}
