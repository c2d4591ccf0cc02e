import type { ReactNode } from 'react';
import { PRODUCT_TITLE, VERSION_LABEL } from '../AppLayout/brand';
import styles from './AuthPanel.module.css';

/** Props of {@link AuthPanel}. */
export interface AuthPanelProps {
  /** The page's heading (its h1), e.g. 'Admin Login'. */
  heading: string;
  /** The heading's id, so a form can be labelled by it. */
  headingId: string;
  children: ReactNode;
}

/**
 * The centred card of the pages an operator sees before they are signed in (§2 Login screen, and
 * accepting an invitation): product title and version, the heading, then `children`.
 */
export function AuthPanel({ heading, headingId, children }: AuthPanelProps) {
  return (
    <main className={styles.page}>
      <div className={styles.panel}>
        <div className={styles.brand}>
          <span className={styles.title}>{PRODUCT_TITLE}</span>
          <span className={styles.version}>{VERSION_LABEL}</span>
        </div>
        <h1 className={styles.heading} id={headingId}>
          {heading}
        </h1>
        {children}
      </div>
    </main>
  );
}
