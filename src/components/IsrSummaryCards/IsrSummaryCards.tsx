import type { ReactNode } from 'react';
import { DASH, formatCount, formatCurrency } from '../../domain/format';
import { averageOrderCents, isIsrSummaryEmpty, type IsrSummary } from '../../domain/isr';
import type { AsyncState } from '../../domain/types';
import { StatCard } from '../Card';
import styles from './IsrSummaryCards.module.css';

/** Props of {@link IsrSummaryCards}. */
export interface IsrSummaryCardsProps {
  /**
   * The ISR summary load (§2): loading shows '…' in every card; empty (or a summary without
   * events) a dash; error the red line 'ISR: ' + message (the screen passes §8's default
   * 'Failed to load ISR summary' when there is none).
   */
  state: AsyncState<IsrSummary>;
  /** The fourth card's label: 'Avg order' on Metrics, 'Avg order (approx)' on Integrated Tracking (§2). */
  averageLabel?: string;
  /** ISO currency of the amounts (default USD, §1). */
  currency?: string;
}

function eventsHint(events: number | null, word: 'events' | 'orders'): string {
  return events == null ? DASH : `${formatCount(events)} ${word}`;
}

/**
 * The four ISR cards (§2): Total revenue, ClickBank-side revenue, LemonSqueezy-side revenue (each
 * with an event-count hint) and Avg order (total amount ÷ total events, with an orders count).
 * Amounts in cents shown with two decimals (§9).
 */
export function IsrSummaryCards({
  state,
  averageLabel = 'Avg order',
  currency = 'USD',
}: IsrSummaryCardsProps) {
  if (state.status === 'error') {
    return (
      <p className={styles.error} role="alert">
        ISR: {state.message}
      </p>
    );
  }
  const summary = state.status === 'ready' && !isIsrSummaryEmpty(state.data) ? state.data : null;
  const value = (cents: number | null): ReactNode =>
    state.status === 'loading' ? '…' : summary ? formatCurrency(cents, currency, 2) : DASH;
  const hint = (events: number | null, word: 'events' | 'orders' = 'events') =>
    state.status === 'loading' ? undefined : summary ? eventsHint(events, word) : undefined;
  return (
    <div className={styles.grid} aria-busy={state.status === 'loading'}>
      <StatCard
        label="Total revenue"
        value={value(summary?.totalAmountCents ?? null)}
        hint={hint(summary?.totalEvents ?? null)}
      />
      <StatCard
        label="ClickBank-side revenue"
        value={value(summary?.clickbankAmountCents ?? null)}
        hint={hint(summary?.clickbankEvents ?? null)}
      />
      <StatCard
        label="LemonSqueezy-side revenue"
        value={value(summary?.lemonsqueezyAmountCents ?? null)}
        hint={hint(summary?.lemonsqueezyEvents ?? null)}
      />
      <StatCard
        label={averageLabel}
        value={value(summary ? averageOrderCents(summary) : null)}
        hint={hint(summary?.totalEvents ?? null, 'orders')}
      />
    </div>
  );
}
