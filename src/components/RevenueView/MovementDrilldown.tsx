import { useId } from 'react';
import { Link } from 'react-router-dom';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { formatCurrency, formatUtcDateTime } from '../../domain/format';
import {
  MOVEMENT_LABELS,
  type MovementSelection,
  type MovementSubscription,
} from '../../domain/revenue';
import type { AsyncState } from '../../domain/types';
import styles from './RevenueView.module.css';

/** Props of {@link MovementDrilldown}. */
export interface MovementDrilldownProps {
  /** The bar whose subscriptions are listed. */
  selection: MovementSelection;
  /** The list's load. */
  state: AsyncState<{ total: number; rows: MovementSubscription[] }>;
  /** ISO code of the money. */
  currency: string;
  /** The console path of a customer's page, by email. */
  customerPath: (email: string) => string;
  /** Close the list. */
  onClose: () => void;
}

/** The subscriptions behind one movement bar, each with a link to the customer. */
export function MovementDrilldown({
  selection,
  state,
  currency,
  customerPath,
  onClose,
}: MovementDrilldownProps) {
  const headingId = useId();
  const label = `${MOVEMENT_LABELS[selection.kind]} on ${selection.date}`;
  return (
    <section className={styles.drilldown} aria-labelledby={headingId}>
      <div className={styles.drillHead}>
        <h3 id={headingId} className={styles.drillTitle}>
          Subscriptions behind {label}
        </h3>
        <Button onClick={onClose}>Close</Button>
      </div>
      {state.status === 'loading' ? <p role="status">Loading…</p> : null}
      {state.status === 'error' ? <Banner tone="danger">Error: {state.message}</Banner> : null}
      {state.status === 'empty' ? <p>No subscriptions.</p> : null}
      {state.status === 'ready' ? (
        <>
          <p className={styles.status}>
            {state.data.total > state.data.rows.length
              ? `The ${state.data.rows.length} largest of ${state.data.total} changes`
              : `${state.data.total} ${state.data.total === 1 ? 'change' : 'changes'}`}
          </p>
          <div className={styles.scroll}>
            <table className={styles.table}>
              <caption className="visually-hidden">{label}</caption>
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Cadence</th>
                  <th scope="col">When (UTC)</th>
                  <th scope="col">MRR change</th>
                </tr>
              </thead>
              <tbody>
                {state.data.rows.map((r) => (
                  <tr key={`${r.subscriptionId}-${r.at}-${r.plan}`}>
                    <td>
                      <Link to={customerPath(r.email)}>{r.email}</Link>
                    </td>
                    <td>{r.provider}</td>
                    <td>{r.plan}</td>
                    <td>{r.cadence}</td>
                    <td>{formatUtcDateTime(r.at)}</td>
                    <td className={styles.num}>{formatCurrency(r.deltaCents, currency, 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
