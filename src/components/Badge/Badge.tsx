import type { ReactNode } from 'react';
import type { Tone } from '../../domain/types';
import styles from './Badge.module.css';

/** Props of {@link Badge}. */
export interface BadgeProps {
  /** Colour family (§4: green = success, yellow = warning, red = danger, grey = neutral, purple = done). */
  tone: Tone;
  /** Short text shown in the pill. */
  children: ReactNode;
  /** Longer explanation, shown as a native tooltip and read by screen readers. */
  title?: string;
}

/** A coloured status pill. The text carries the meaning; colour only reinforces it. */
export function Badge({ tone, children, title }: BadgeProps) {
  return (
    <span className={styles.badge} data-tone={tone} title={title}>
      {children}
      {title ? <span className="visually-hidden"> ({title})</span> : null}
    </span>
  );
}
