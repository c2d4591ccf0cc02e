import { useId, type ReactNode } from 'react';
import styles from './SettingsCard.module.css';

/** Props of {@link SettingsCard}. */
export interface SettingsCardProps {
  /** The card's heading, also the region's accessible name. */
  title: string;
  /** The heading's level: 3 under a part's h2 (default), 2 straight under the page's h1. */
  headingLevel?: 2 | 3;
  /** One or two sentences under the heading: what the card does. */
  description?: ReactNode;
  /** The card's content. */
  children: ReactNode;
}

/** One titled card of the Settings screen (a labelled region), e.g. "Change password". */
export function SettingsCard({
  title,
  headingLevel = 3,
  description,
  children,
}: SettingsCardProps) {
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <Heading className={styles.title} id={headingId}>
        {title}
      </Heading>
      {description ? <p className={styles.description}>{description}</p> : null}
      {children}
    </section>
  );
}
