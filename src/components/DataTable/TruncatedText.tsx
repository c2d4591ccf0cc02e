import styles from './DataTable.module.css';

/** Props of {@link TruncatedText}. */
export interface TruncatedTextProps {
  /** The full text; shown whole on hover (title) and read whole by screen readers. */
  text: string;
}

/**
 * Text cut with an ellipsis to its cell's width; the full text is its title (hover) and is read
 * out whole. A focusable child (e.g. a link) expands it in place while focused.
 */
export function TruncatedText({ text }: TruncatedTextProps) {
  return (
    <span className={styles.truncate} title={text}>
      {text}
    </span>
  );
}
