import type { ReactNode } from 'react';
import styles from './PageHeader.module.css';

/** Props of {@link PageHeader}. */
export interface PageHeaderProps {
  /** The screen's title (§2), the page's one h1. */
  title: string;
  /** Id for the h1, so the screen's landmark can be named by it (aria-labelledby). */
  titleId?: string;
  /** A hint or live summary beside the title (e.g. 'Click an email to view details.', 'Page 1 of 3'). */
  children?: ReactNode;
}

/** A screen's header: the h1 title and, beside it, a muted hint or summary that wraps under it when narrow. */
export function PageHeader({ title, titleId, children }: PageHeaderProps) {
  return (
    <header className={styles.header}>
      <h1 id={titleId} className={styles.title}>
        {title}
      </h1>
      {children}
    </header>
  );
}
