import { useState } from 'react';
import { Button } from '../Button';
import styles from './CopyButton.module.css';

/** Writes text to the system clipboard (the browser's Clipboard API). */
function copyToClipboard(text: string): Promise<void> {
  return navigator.clipboard.writeText(text);
}

/** Props of {@link CopyButton}. */
export interface CopyButtonProps {
  /** The text put on the clipboard. */
  text: string;
  /** The button's text and accessible name, e.g. "Copy link". */
  label: string;
  /** How the text is copied; the Clipboard API unless a story or test passes its own. */
  onCopy?: (text: string) => Promise<void>;
  /** Compact size for rows and toolbars. */
  size?: 'medium' | 'small';
}

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A button that copies `text` and says whether it worked in a polite live region next to it
 * ("Copied." or how to copy by hand), since a clipboard write can be refused by the browser.
 */
export function CopyButton({ text, label, onCopy = copyToClipboard, size }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>('idle');

  function handleClick() {
    onCopy(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  }

  return (
    <span className={styles.wrap}>
      <Button size={size} onClick={handleClick}>
        {label}
      </Button>
      <span className={styles.status} role="status" data-state={state}>
        {state === 'copied'
          ? 'Copied.'
          : state === 'failed'
            ? 'Could not copy: select the text and copy it.'
            : ''}
      </span>
    </span>
  );
}
