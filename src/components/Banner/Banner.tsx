import type { ReactNode } from 'react';
import type { Tone } from '../../domain/types';
import styles from './Banner.module.css';

/** Props of {@link Banner}. */
export interface BannerProps {
  /** warning = the amber notice, danger = the red error banner (§2 Login), success/info for results. */
  tone: Exclude<Tone, 'done'>;
  /** The message. */
  children: ReactNode;
  /** Optional trailing control (Retry, Dismiss). */
  action?: ReactNode;
}

/**
 * A full-width message. Danger banners are announced at once (`role="alert"`); other tones
 * politely (`role="status"`).
 */
export function Banner({ tone, children, action }: BannerProps) {
  return (
    <div className={styles.banner} data-tone={tone} role={tone === 'danger' ? 'alert' : 'status'}>
      <div className={styles.body}>{children}</div>
      {action}
    </div>
  );
}
