import { useId } from 'react';
import {
  TIMELINE_KINDS,
  TIMELINE_KIND_LABELS,
  type TimelineItem,
  type TimelineKind,
} from '../../domain/customer';
import { formatUtcDateTimeSeconds } from '../../domain/format';
import type { AsyncState, Tone } from '../../domain/types';
import { Badge } from '../Badge';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { DetailList, type DetailItem } from '../DetailList';
import { SettingsCard } from '../SettingsCard';
import styles from './CustomerView.module.css';

/** The timeline's loaded entries, newest first, and whether older ones remain. */
export interface TimelineEntries {
  items: readonly TimelineItem[];
  hasMore: boolean;
}

/** Props of {@link CustomerTimeline}. */
export interface CustomerTimelineProps {
  /** The first page: loading, error (its message), empty (no entry of the chosen kinds), ready. */
  entries: AsyncState<TimelineEntries>;
  /** The chosen kinds; empty = every kind (the 'All' chip). Kept in the URL by the screen. */
  kinds: readonly TimelineKind[];
  /** A chip was toggled: the next choice of kinds ([] = every kind). */
  onKindsChange: (kinds: TimelineKind[]) => void;
  /** An older page is loading ('Show older' is busy). */
  isLoadingMore?: boolean;
  /** Why the last older page failed, shown beside 'Show older', which retries. */
  loadMoreError?: string | null;
  /** 'Show older' was pressed. */
  onLoadMore: () => void;
  /** Retry after the first page failed. */
  onRetry: () => void;
}

const KIND_TONES: Record<TimelineKind, Tone> = {
  webhook: 'info',
  subscription: 'neutral',
  payment: 'success',
  refund: 'warning',
  access: 'done',
  forum: 'info',
  isr: 'neutral',
  log: 'neutral',
};

/** A detail value as one line: strings as they are, other values as JSON. */
function detailText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Who acted, as the entry says it: an operator's email, or the webhook / expiration / system. */
function actorText(actor: string): string {
  switch (actor) {
    case 'webhook':
      return 'by a webhook';
    case 'expiration':
      return 'by the expiration run';
    case 'system':
      return 'by the system';
    default:
      return `by ${actor}`;
  }
}

/** One entry: time, kind, title (opening to the detail) and the actor. */
function Entry({ item }: { item: TimelineItem }) {
  const details: DetailItem[] = Object.entries(item.detail).map(([label, value]) => ({
    label,
    value: detailText(value),
    kind: typeof value === 'number' ? 'number' : 'text',
  }));
  return (
    <li className={styles.entry}>
      <time className={styles.time} dateTime={item.at}>
        {formatUtcDateTimeSeconds(item.at)}
      </time>
      <span>
        <Badge tone={KIND_TONES[item.kind]}>{TIMELINE_KIND_LABELS[item.kind]}</Badge>
      </span>
      <div className={styles.entryBody}>
        {details.length > 0 ? (
          <details>
            <summary>
              {item.title}
              {item.actor ? <span className={styles.actor}> · {actorText(item.actor)}</span> : null}
            </summary>
            <div className={styles.detail}>
              <DetailList items={details} />
            </div>
          </details>
        ) : (
          <p className={styles.plain}>
            {item.title}
            {item.actor ? <span className={styles.actor}> · {actorText(item.actor)}</span> : null}
          </p>
        )}
      </div>
    </li>
  );
}

/**
 * The customer's timeline (docs/api.md "Customers"): every webhook delivery, subscription
 * change, payment, refund, access change (with who made it), forum sync, ISR event and log line
 * naming the customer, newest first in one list. Kind chips (toggle buttons; none pressed = All)
 * narrow it; 'Show older' loads the next page, so a customer with thousands of entries stays
 * fast. Each entry opens to its detail. Pure.
 */
export function CustomerTimeline({
  entries,
  kinds,
  onKindsChange,
  isLoadingMore = false,
  loadMoreError = null,
  onLoadMore,
  onRetry,
}: CustomerTimelineProps) {
  const chipsLabel = useId();
  const toggle = (kind: TimelineKind) =>
    onKindsChange(kinds.includes(kind) ? kinds.filter((k) => k !== kind) : [...kinds, kind]);
  return (
    <SettingsCard title="Timeline" headingLevel={2}>
      <div role="group" aria-labelledby={chipsLabel} className={styles.chips}>
        <span id={chipsLabel} className="visually-hidden">
          Show entries of kind
        </span>
        <button
          type="button"
          className={styles.chip}
          aria-pressed={kinds.length === 0}
          onClick={() => onKindsChange([])}
        >
          All
        </button>
        {TIMELINE_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className={styles.chip}
            aria-pressed={kinds.includes(kind)}
            onClick={() => toggle(kind)}
          >
            {TIMELINE_KIND_LABELS[kind]}
          </button>
        ))}
      </div>
      {entries.status === 'loading' ? (
        <p role="status" className={styles.muted}>
          Loading timeline…
        </p>
      ) : entries.status === 'error' ? (
        <Banner
          tone="danger"
          action={
            <Button size="small" onClick={onRetry}>
              Retry
            </Button>
          }
        >
          {entries.message}
        </Banner>
      ) : entries.status === 'empty' ? (
        <p className={styles.muted}>
          {kinds.length === 0 ? 'Nothing has happened yet.' : 'No entries of the chosen kinds.'}
        </p>
      ) : (
        <>
          <ol className={styles.timeline} aria-label="Timeline entries, newest first">
            {entries.data.items.map((item) => (
              <Entry key={item.id} item={item} />
            ))}
          </ol>
          {entries.data.hasMore || loadMoreError ? (
            <div className={styles.more}>
              <Button
                onClick={() => {
                  if (!isLoadingMore) onLoadMore();
                }}
                aria-disabled={isLoadingMore || undefined}
              >
                {isLoadingMore ? 'Loading older…' : 'Show older'}
              </Button>
              {loadMoreError ? (
                <span role="alert" className={styles.error}>
                  {loadMoreError}
                </span>
              ) : null}
            </div>
          ) : (
            <p className={styles.muted}>The beginning of this customer&apos;s history.</p>
          )}
        </>
      )}
    </SettingsCard>
  );
}
