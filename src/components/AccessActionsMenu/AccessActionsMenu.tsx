import { useId, useRef, useState } from 'react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ACCESS_ACTIONS, type AccessActionEntry } from '../../domain/actions';
import { DASH, formatUtcDateTime } from '../../domain/format';
import type { AccessAction, AccessActionKind } from '../../domain/types';
import { AccessDateDialog, type DatedAccessActionKind } from '../AccessDateDialog';
import { Button } from '../Button';
import { ConfirmDialog } from '../ConfirmDialog';
import styles from './AccessActionsMenu.module.css';

/** Props of {@link AccessActionsMenu}. */
export interface AccessActionsMenuProps {
  /** The user the actions apply to; also names the trigger ('Edit access for {email}'). */
  email: string;
  /** End of the current billing period (ISO UTC), named by the revoke-at-renewal confirmation. */
  currentPeriodEnd?: string | null;
  /** The instant the dated actions' default (tomorrow 09:00 UTC, §9) counts from; defaults to now. */
  now?: Date;
  /**
   * An action for this user is running: the trigger is aria-disabled and will not open until it
   * settles (aria-disabled, not disabled, so focus stays on it after a confirmation).
   */
  isPending?: boolean;
  /**
   * Why the signed-in operator may not run access actions (their role, docs/api.md "Roles"), or
   * null when they may: the trigger is then aria-disabled, never opens, and carries the reason as
   * its description (announced, and shown on hover).
   */
  blockedReason?: string | null;
  /**
   * The operator chose and, where needed, confirmed an action (§2 Users, §7 /users/actions/*).
   * Dated actions carry the wire date 'YYYY-MM-DD HH:MM:SS' (UTC).
   */
  onAction: (email: string, action: AccessAction) => void;
}

/** The menu entries in §2 order (ACCESS_ACTIONS): grants, then (after a separator) the revocations. */
const GRANT_ITEMS = ACCESS_ACTIONS.filter((entry) => !entry.isDestructive);
const REVOKE_ITEMS = ACCESS_ACTIONS.filter((entry) => entry.isDestructive);

/** An entry's menu text: the §2 label, with '…' when it asks for a date before acting. */
function itemText(entry: AccessActionEntry): string {
  return entry.needsDate ? `${entry.label}…` : entry.label;
}

/** The dialog an entry opens, if any. */
type PendingDialog =
  | { type: 'date'; kind: DatedAccessActionKind }
  | { type: 'confirm'; kind: 'revoke_now' | 'revoke_deferred' };

/**
 * A user row's Edit menu (Radix DropdownMenu), labelled from ACCESS_ACTIONS (§2 wording): Grant
 * now acts at once; Grant until a date… and Revoke on a date… ask for the date (AccessDateDialog);
 * Revoke now and Revoke at renewal (deferred) ask for confirmation (ConfirmDialog). It holds only this UI state and emits one final
 * `onAction(email, action)`. Focus returns to the Edit trigger when the menu or a dialog closes.
 */
export function AccessActionsMenu({
  email,
  currentPeriodEnd,
  now,
  isPending = false,
  blockedReason = null,
  onAction,
}: AccessActionsMenuProps) {
  const reasonId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<PendingDialog | null>(null);
  /** Set while an entry that opens a dialog is chosen: the dialog, not the menu, takes focus. */
  const isOpeningDialogRef = useRef(false);

  function handleSelect(kind: AccessActionKind) {
    switch (kind) {
      case 'grant':
        onAction(email, { kind });
        return;
      case 'grant_on_date':
      case 'revoke_on_date':
        isOpeningDialogRef.current = true;
        setDialog({ type: 'date', kind });
        return;
      case 'revoke_now':
      case 'revoke_deferred':
        isOpeningDialogRef.current = true;
        setDialog({ type: 'confirm', kind });
        return;
    }
  }

  function handleDateConfirm(kind: DatedAccessActionKind, wireDateTime: string) {
    setDialog(null);
    onAction(
      email,
      kind === 'grant_on_date' ? { kind, until: wireDateTime } : { kind, date: wireDateTime },
    );
  }

  function handleRevokeConfirm(kind: 'revoke_now' | 'revoke_deferred') {
    setDialog(null);
    onAction(email, { kind });
  }

  const periodEnd = formatUtcDateTime(currentPeriodEnd);
  const renewalText =
    periodEnd === DASH
      ? 'the current billing period ends'
      : `the current billing period ends (${periodEnd} UTC)`;

  return (
    <>
      {/*
        Non-modal: a menu needs no focus trap or aria-hidden on the page (the trigger must stay
        exposed), and the date / confirm dialogs then open cleanly from its items.
      */}
      <DropdownMenu.Root
        modal={false}
        open={isMenuOpen}
        onOpenChange={(open) => setIsMenuOpen(open && !isPending && !blockedReason)}
      >
        <DropdownMenu.Trigger asChild>
          <Button
            ref={triggerRef}
            size="small"
            className={styles.trigger}
            aria-label={`Edit access for ${email}`}
            aria-disabled={isPending || blockedReason ? true : undefined}
            aria-describedby={blockedReason ? reasonId : undefined}
            title={blockedReason ?? undefined}
          >
            Edit <span aria-hidden="true">▾</span>
          </Button>
        </DropdownMenu.Trigger>
        {blockedReason ? (
          <span id={reasonId} className="visually-hidden">
            {blockedReason}
          </span>
        ) : null}
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className={styles.menu}
            align="end"
            sideOffset={4}
            loop
            onCloseAutoFocus={(event) => {
              if (!isOpeningDialogRef.current) return; // default: back to the trigger
              isOpeningDialogRef.current = false;
              event.preventDefault();
            }}
          >
            {GRANT_ITEMS.map((item) => (
              <DropdownMenu.Item
                key={item.kind}
                className={styles.item}
                onSelect={() => handleSelect(item.kind)}
              >
                {itemText(item)}
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Separator className={styles.separator} />
            {REVOKE_ITEMS.map((item) => (
              <DropdownMenu.Item
                key={item.kind}
                className={styles.item}
                data-destructive=""
                onSelect={() => handleSelect(item.kind)}
              >
                {itemText(item)}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>

      {/* Mounted only while open: a 500-row table carries 500 of these menus (bench/users-table-render.md). */}
      {dialog?.type === 'date' ? (
        <AccessDateDialog
          isOpen
          kind={dialog.kind}
          email={email}
          now={now}
          returnFocusRef={triggerRef}
          onCancel={() => setDialog(null)}
          onConfirm={(wire) => handleDateConfirm(dialog.kind, wire)}
        />
      ) : null}
      {dialog?.type === 'confirm' ? (
        <ConfirmDialog
          isOpen
          title={
            dialog.kind === 'revoke_deferred' ? 'Revoke access at renewal?' : 'Revoke access now?'
          }
          description={
            dialog.kind === 'revoke_deferred'
              ? `${email} keeps forum access until ${renewalText}, then loses it.`
              : `${email} loses forum access immediately.`
          }
          confirmLabel={dialog.kind === 'revoke_deferred' ? 'Revoke at renewal' : 'Revoke now'}
          returnFocusRef={triggerRef}
          onCancel={() => setDialog(null)}
          onConfirm={() => handleRevokeConfirm(dialog.kind)}
        />
      ) : null}
    </>
  );
}
