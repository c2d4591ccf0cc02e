/**
 * A screen that is routed already but whose content arrives in a later release (§2 Routing:
 * /metrics, /isr, /logs, /maintenance — and /users, /subscriptions until their screens land).
 */
import { useId } from 'react';
import styles from './PlaceholderScreen.module.css';

/** The notice every placeholder shows. */
export const PLACEHOLDER_TEXT = 'This screen arrives in a later release.';

/** Props of {@link PlaceholderScreen}. */
export interface PlaceholderScreenProps {
  /** The screen's §2 title, e.g. 'Metrics' or 'Integrated Tracking (First-Party)'. */
  title: string;
}

/** The screen's title as its heading, then the 'later release' notice. */
export function PlaceholderScreen({ title }: PlaceholderScreenProps) {
  const headingId = useId();
  return (
    <section className={styles.view} aria-labelledby={headingId}>
      <h1 className={styles.heading} id={headingId}>
        {title}
      </h1>
      <p className={styles.note}>{PLACEHOLDER_TEXT}</p>
    </section>
  );
}
