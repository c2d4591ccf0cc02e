import { useId } from 'react';
import styles from './SettingsView.module.css';

/** The Settings screen (§2 Settings): a placeholder until environment and integration settings exist. No props. */
export function SettingsView() {
  const headingId = useId();
  return (
    <section className={styles.view} aria-labelledby={headingId}>
      <h1 className={styles.heading} id={headingId}>
        Settings
      </h1>
      <div className={styles.placeholder}>
        <p className={styles.text}>Environment and integration settings will go here.</p>
      </div>
    </section>
  );
}
