import { DASH, formatCurrency, formatUtcDateTime } from '../../domain/format';
import {
  LIVE_EVENT_LABELS,
  formatRelativeTime,
  type LiveEvent,
  type LiveEventType,
} from '../../domain/live';
import { normaliseProviderName, providerLabel } from '../../domain/metrics';
import type { Tone } from '../../domain/types';
import { Badge } from '../Badge';
import styles from './LiveFeed.module.css';

/** Props of {@link LiveFeed}. */
export interface LiveFeedProps {
  /** The last live events, newest first (the client keeps at most 50). */
  events: readonly LiveEvent[];
  /** The instant relative times are measured from (the screen re-reads it each minute). */
  now: Date;
  /** Accessible name of the list (default 'Latest live events'). */
  listLabel?: string;
}

/** The pill tone of each type: the label carries the meaning, the colour reinforces it. */
const TYPE_TONES: Readonly<Record<LiveEventType, Tone>> = {
  'subscription.new': 'success',
  'subscription.renewal': 'info',
  'subscription.cancelled': 'danger',
  'access.granted': 'done',
  'access.revoked': 'warning',
  'isr.event': 'neutral',
};

/** The feed's amount: integer cents in the event's currency (USD when it sent none); null = none. */
export function liveEventAmount(event: Pick<LiveEvent, 'amountCents' | 'currency'>): string | null {
  return event.amountCents === null ? null : formatCurrency(event.amountCents, event.currency);
}

/** The feed's provider name: 'LemonSqueezy', 'ClickBank', another value as sent; null = none. */
export function liveEventProvider(provider: string | null): string | null {
  return provider === null ? null : providerLabel(normaliseProviderName(provider));
}

/**
 * The live activity feed: the last events, newest first, each with its type, the
 * customer's email, the provider, the amount in its own currency and when it happened (relative,
 * and the UTC time 'YYYY-MM-DD HH:MM UTC'). Missing fields show a dash or are left out (an access
 * change has no amount); long emails are truncated with the full text as a tooltip. An empty feed
 * says so.
 */
export function LiveFeed({ events, now, listLabel = 'Latest live events' }: LiveFeedProps) {
  if (events.length === 0) {
    return (
      <div className={styles.empty}>
        <p className={styles.emptyTitle}>No live events yet</p>
        <p className={styles.emptyHint}>
          New sales, renewals, cancellations and access changes appear here as they happen.
        </p>
      </div>
    );
  }
  const nowMs = now.getTime();
  return (
    <ol className={styles.list} aria-label={listLabel}>
      {events.map((event, index) => {
        const amount = liveEventAmount(event);
        const provider = liveEventProvider(event.provider);
        const relative = formatRelativeTime(event.at, nowMs);
        return (
          <li
            key={event.id ?? `${event.type}-${event.at ?? ''}-${index}`}
            className={styles.item}
            data-type={event.type}
          >
            <div className={styles.top}>
              <Badge tone={TYPE_TONES[event.type]}>{LIVE_EVENT_LABELS[event.type]}</Badge>
              {amount !== null ? (
                <span
                  className={styles.amount}
                  data-sign={(event.amountCents ?? 0) < 0 ? 'negative' : 'positive'}
                >
                  {amount}
                </span>
              ) : null}
            </div>
            {event.email !== null ? (
              <p className={styles.email} title={event.email}>
                {event.email}
              </p>
            ) : (
              <p className={styles.email} data-missing="">
                <span aria-hidden="true">{DASH}</span>
                <span className="visually-hidden">No email</span>
              </p>
            )}
            <p className={styles.meta}>
              <span>{provider ?? 'Unknown provider'}</span>
              {event.at !== null ? (
                <>
                  <span aria-hidden="true"> · </span>
                  <time dateTime={event.at}>
                    {relative}
                    <span aria-hidden="true"> · </span>
                    <span className={styles.utc}>{formatUtcDateTime(event.at)} UTC</span>
                  </time>
                </>
              ) : null}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
