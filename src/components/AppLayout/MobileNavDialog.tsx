/**
 * The mobile overlay menu's dialog (§2 Layout): Radix Dialog gives it the focus trap, scroll lock,
 * dismissal and focus return.
 */
import type { ReactNode, RefObject } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Button } from '../Button';
import { CloseIcon } from './icons';
import styles from './AppLayout.module.css';

/** Props of {@link MobileNavDialog}. */
export interface MobileNavDialogProps {
  /** The drawer's element id (the menu button's aria-controls). */
  id: string;
  /** The drawer's title, its accessible name: the product title. */
  title: string;
  /** Whether the overlay is open. */
  isOpen: boolean;
  /** Called with false on the close button, the backdrop or Escape. */
  onOpenChange: (next: boolean) => void;
  /** The menu button, which gets focus back whenever the overlay closes. */
  returnFocusRef: RefObject<HTMLElement | null>;
  /** The drawer's navigation. */
  children: ReactNode;
}

/**
 * A modal drawer over the page with a backdrop: focus moves into it when it opens and back to the
 * menu button when it closes; the rest of the page is hidden from assistive technology meanwhile.
 */
export function MobileNavDialog({
  id,
  title,
  isOpen,
  onOpenChange,
  returnFocusRef,
  children,
}: MobileNavDialogProps) {
  return (
    <Dialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <Dialog.Overlay className={styles.backdrop} data-testid="mobile-nav-backdrop" />
      <Dialog.Content
        id={id}
        className={styles.drawer}
        aria-describedby={undefined}
        onCloseAutoFocus={(event) => {
          // There is no Dialog.Trigger (the menu button is the layout's own): return focus here.
          event.preventDefault();
          returnFocusRef.current?.focus();
        }}
      >
        <div className={styles.drawerHeader}>
          <Dialog.Title className={styles.drawerTitle}>{title}</Dialog.Title>
          <Dialog.Close asChild>
            <Button variant="ghost" className={styles.iconButton} aria-label="Close menu">
              <CloseIcon className={styles.buttonIcon} />
            </Button>
          </Dialog.Close>
        </div>
        {children}
      </Dialog.Content>
    </Dialog.Root>
  );
}
