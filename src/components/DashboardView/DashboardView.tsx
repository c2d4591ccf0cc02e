import { Fragment, useId, type ReactNode } from 'react';
import type { AsyncState, DashboardStats } from '../../domain/types';
import { formatCount, formatCurrency, formatOneDecimal } from '../../domain/format';
import { Banner } from '../Banner';
import { StatCard } from '../Card';
import styles from './DashboardView.module.css';

/** Props of {@link DashboardView}. */
export interface DashboardViewProps {
  /**
   * The stats load (§2 Dashboard): loading shows 'Loading stats…'; error shows 'Error: ' plus
   * the message (the screen passes 'Failed to load stats' when it has none); ready shows the cards.
   */
  state: AsyncState<DashboardStats>;
}

/** How many placeholder cards the loading state sketches (the nine always-present cards). */
const PLACEHOLDER_CARDS = 9;

/** One card to render: its §2 label and formatted value. */
interface DashboardCard {
  label: string;
  value: ReactNode;
}

/** A formatted figure that may wrap only after a thousands separator, never inside a digit group. */
function Figure({ text }: { text: string }) {
  return text.split(',').map((group, index) => (
    <Fragment key={index}>
      {index > 0 ? (
        <>
          ,<wbr />
        </>
      ) : null}
      {group}
    </Fragment>
  ));
}

/**
 * Today's counts (§2 "new, renewals and cancels counts joined"). Read and copied as
 * '3 new · 11 renewals · 1 cancels'; shown as three small figure-over-word columns.
 */
function TodayValue({ stats }: { stats: DashboardStats }) {
  const parts = [
    { count: stats.newToday, word: 'new' },
    { count: stats.renewalsToday, word: 'renewals' },
    { count: stats.cancellationsToday, word: 'cancels' },
  ];
  return (
    <span className={styles.today}>
      {parts.map(({ count, word }, index) => (
        <Fragment key={word}>
          {index > 0 ? <span className="visually-hidden"> · </span> : null}
          <span className={styles.todayPart}>
            <span className={styles.todayFigure}>{formatCount(count)}</span>
            <span className={styles.todayWord}> {word}</span>
          </span>
        </Fragment>
      ))}
    </span>
  );
}

/**
 * The §2 Dashboard cards in order. Money in the stats currency: MRR/ARR with 2 decimals, the
 * all-time revenue with 0 (§9). The all-time cards appear only when non-zero.
 */
function dashboardCards(stats: DashboardStats): DashboardCard[] {
  const { currency } = stats;
  const cards: DashboardCard[] = [
    { label: 'MRR', value: <Figure text={formatCurrency(stats.mrrCents, currency, 2)} /> },
    { label: 'ARR', value: <Figure text={formatCurrency(stats.arrCents, currency, 2)} /> },
    { label: 'Today', value: <TodayValue stats={stats} /> },
    { label: 'Currency', value: currency },
    { label: 'Active (Total)', value: <Figure text={formatCount(stats.activeTotal)} /> },
    { label: 'Active (Monthly)', value: <Figure text={formatCount(stats.activeMonthly)} /> },
    { label: 'Active (Yearly)', value: <Figure text={formatCount(stats.activeYearly)} /> },
    {
      label: 'Scheduled Cancellations',
      value: <Figure text={formatCount(stats.scheduledCancellations)} />,
    },
    { label: 'Avg Days Remaining', value: formatOneDecimal(stats.avgDaysRemaining) },
  ];
  if (stats.totalSubscribers !== 0) {
    cards.push({
      label: 'Total Subscribers',
      value: <Figure text={formatCount(stats.totalSubscribers)} />,
    });
  }
  if (stats.totalRevenueCents !== 0) {
    cards.push({
      label: 'Total Revenue',
      value: <Figure text={formatCurrency(stats.totalRevenueCents, currency, 0)} />,
    });
  }
  return cards;
}

/** The body for each state of the load. */
function DashboardBody({ state }: DashboardViewProps) {
  switch (state.status) {
    case 'loading':
      return (
        <>
          <p className={styles.loading} role="status">
            Loading stats…
          </p>
          <div className={styles.grid} aria-hidden="true">
            {Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
              <div key={index} className={styles.placeholder} />
            ))}
          </div>
        </>
      );
    case 'error':
      return <Banner tone="danger">Error: {state.message}</Banner>;
    case 'empty':
      return (
        <p className={styles.loading} role="status">
          No stats available.
        </p>
      );
    case 'ready':
      return (
        <>
          {/* StatCard labels are h3: this keeps the heading outline whole for screen-reader users. */}
          <h2 className="visually-hidden">Stats</h2>
          <div className={styles.grid}>
            {dashboardCards(state.data).map((card) => (
              <StatCard key={card.label} label={card.label} value={card.value} />
            ))}
          </div>
        </>
      );
  }
}

/** The Dashboard (§2): headline, then the loading text, the error line, or the revenue and subscriber cards. */
export function DashboardView({ state }: DashboardViewProps) {
  const headingId = useId();
  return (
    <section
      className={styles.view}
      aria-labelledby={headingId}
      aria-busy={state.status === 'loading'}
      data-state={state.status}
    >
      <h1 className={styles.heading} id={headingId}>
        Dashboard
      </h1>
      <DashboardBody state={state} />
    </section>
  );
}
