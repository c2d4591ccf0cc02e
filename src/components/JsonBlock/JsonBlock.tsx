import { useId } from 'react';
import { DASH } from '../../domain/format';
import { prettyJson } from './prettyJson';
import styles from './JsonBlock.module.css';

/** Props of {@link JsonBlock}. */
export interface JsonBlockProps {
  /** What the JSON is, e.g. 'Provider payload'; also the scroll region's accessible name. */
  label: string;
  /** Any value: objects are pretty-printed, JSON text is re-indented; null/undefined shows a dash. */
  value: unknown;
  /** Keeps the label for assistive technology only, when a section heading already says it. */
  isLabelHidden?: boolean;
}

/**
 * Raw JSON shown as monospace text with a label (§2 detail drawer: first subscription item, pause,
 * raw provider payload). Rendered as text, never as HTML. Tall values scroll inside a box of limited
 * height, which is keyboard-focusable so its content can be scrolled without a mouse.
 */
export function JsonBlock({ label, value, isLabelHidden = false }: JsonBlockProps) {
  const labelId = useId();
  const json = prettyJson(value);
  return (
    <div className={styles.block}>
      <span id={labelId} className={isLabelHidden ? 'visually-hidden' : styles.label}>
        {label}
      </span>
      {json == null ? (
        <p className={styles.empty}>{DASH}</p>
      ) : (
        // A scrollable region must be reachable by keyboard (WCAG 2.1.1; axe scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        <pre className={styles.code} role="region" aria-labelledby={labelId} tabIndex={0}>
          {json}
        </pre>
      )}
    </div>
  );
}
