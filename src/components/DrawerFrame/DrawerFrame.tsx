import { useLayoutEffect, useRef, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../Button';
import styles from './DrawerFrame.module.css';

export interface DrawerFrameProps {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The header's second line before 'Times in UTC'; null leaves the line out, '' shows only the note. */
  subtitle: string | null;
  /** Marks the body aria-busy while its content loads. */
  busy: boolean;
  children: ReactNode;
}

/**
 * A right-side modal dialog with a sticky header (title, optional subtitle with 'Times in UTC',
 * Close) over a scrolling body. Closes on Close, Escape and a backdrop click; focus is trapped inside
 * while open and returns, on close, to the element that had it when the drawer opened.
 */
export function DrawerFrame({
  isOpen,
  onOpenChange,
  title,
  subtitle,
  busy,
  children,
}: DrawerFrameProps) {
  const returnFocusRef = useRef<HTMLElement | null>(null);
  // Remember the trigger before Radix moves focus into the drawer (its focus scope runs in a later,
  // passive effect), so focus can go back to it: without a Dialog.Trigger Radix would drop it.
  useLayoutEffect(() => {
    if (!isOpen) return;
    const active = document.activeElement;
    returnFocusRef.current =
      active instanceof HTMLElement && active !== document.body ? active : null;
  }, [isOpen]);

  const handleCloseAutoFocus = (event: Event) => {
    const trigger = returnFocusRef.current;
    returnFocusRef.current = null;
    if (trigger?.isConnected) {
      event.preventDefault();
      trigger.focus();
    }
  };

  return (
    <Dialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.panel}
          aria-describedby={undefined}
          onCloseAutoFocus={handleCloseAutoFocus}
        >
          <header className={styles.header}>
            <div className={styles.heading}>
              <Dialog.Title className={styles.title}>{title}</Dialog.Title>
              {subtitle != null ? (
                <Dialog.Description className={styles.subtitle}>
                  {subtitle ? <span className={styles.who}>{subtitle}</span> : null}
                  <span className={styles.utcNote}>Times in UTC</span>
                </Dialog.Description>
              ) : null}
            </div>
            <Dialog.Close asChild>
              <Button>Close</Button>
            </Dialog.Close>
          </header>
          <div className={styles.body} aria-busy={busy}>
            {children}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
