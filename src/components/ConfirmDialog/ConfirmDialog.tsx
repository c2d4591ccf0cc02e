import type { ReactNode, RefObject } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Button } from '../Button';
import styles from './ConfirmDialog.module.css';

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  /** Whether the dialog is shown (controlled). */
  isOpen: boolean;
  /** The question, e.g. 'Revoke access now?'. */
  title: string;
  /** What will happen, naming who it happens to. */
  description: ReactNode;
  /** The confirm button's text, e.g. 'Revoke now'. */
  confirmLabel: string;
  /** The cancel button's text. */
  cancelLabel?: string;
  /** danger for destructive actions (revocations), primary otherwise. */
  tone?: 'danger' | 'primary';
  /** The confirm button was pressed; the owner closes the dialog and acts. */
  onConfirm: () => void;
  /** Cancel, Escape: the owner closes the dialog and does nothing. */
  onCancel: () => void;
  /** Where focus goes when the dialog closes (e.g. the menu trigger it was opened from). */
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * A modal confirmation (Radix AlertDialog): a title, a description, Cancel and a confirm button.
 * Cancel has the initial focus, so Enter never confirms a destructive action by accident; a click
 * outside does not dismiss it. Focus returns to `returnFocusRef` (or the previously focused
 * element) on close.
 */
export function ConfirmDialog({
  isOpen,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  onConfirm,
  onCancel,
  returnFocusRef,
}: ConfirmDialogProps) {
  return (
    <AlertDialog.Root
      open={isOpen}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content
          className={styles.content}
          onCloseAutoFocus={(event) => {
            if (!returnFocusRef?.current) return;
            event.preventDefault();
            returnFocusRef.current.focus();
          }}
        >
          <AlertDialog.Title className={styles.title}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.description}>
            {description}
          </AlertDialog.Description>
          <div className={styles.buttons}>
            <AlertDialog.Cancel asChild>
              <Button>{cancelLabel}</Button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would also report a close, i.e. a cancel. */}
            <Button variant={tone} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
