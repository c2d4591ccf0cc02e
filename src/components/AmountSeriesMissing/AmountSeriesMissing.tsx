import styles from './AmountSeriesMissing.module.css';

/** Props of {@link AmountSeriesMissing}. */
export interface AmountSeriesMissingProps {
  /** The §3 accepted amount-series names, listed for whoever fixes the backend. */
  acceptedNames: readonly string[];
}

/**
 * §2: the 'Total amount vs providers (daily)' chart's message when the answer carries no amount
 * series: says so and lists the accepted series names.
 */
export function AmountSeriesMissing({ acceptedNames }: AmountSeriesMissingProps) {
  return (
    <div className={styles.message}>
      <p>No amount time series was found in the metrics response.</p>
      <p>
        Accepted series names:{' '}
        {acceptedNames.map((name, index) => (
          <span key={name}>
            {index > 0 ? ', ' : null}
            <code>{name}</code>
          </span>
        ))}
        .
      </p>
    </div>
  );
}
