import { useId, useState, type FormEvent, type RefObject } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { defaultActionDateTimeLocal, formatUtcDateTime, toWireDateTime } from '../../domain/format';
import { Button } from '../Button';
import { TextField } from '../Field';
import styles from './AccessDateDialog.module.css';

/** The two dated access actions (§2 Users: grant until a date, revoke on a date). */
export type DatedAccessActionKind = 'grant_on_date' | 'revoke_on_date';

/** Props of {@link AccessDateDialog}. */
export interface AccessDateDialogProps {
  /** Whether the dialog is shown (controlled). Each opening starts again from the default date. */
  isOpen: boolean;
  /** Which dated action the date is for. */
  kind: DatedAccessActionKind;
  /** The user it applies to, named in the dialog. */
  email: string;
  /** The instant "tomorrow 09:00 UTC" is counted from (§9); defaults to the current time. */
  now?: Date;
  /** Confirm was pressed: the chosen instant as the wire string 'YYYY-MM-DD HH:MM:SS' (UTC, §5). */
  onConfirm: (wireDateTime: string) => void;
  /** Cancel or Escape: the owner closes the dialog and does nothing. */
  onCancel: () => void;
  /** Where focus goes when the dialog closes (e.g. the menu trigger it was opened from). */
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** Title, sentence and confirm-button style of each dated action. */
const COPY: Record<
  DatedAccessActionKind,
  { title: string; sentence: (email: string) => string; tone: 'primary' | 'danger' }
> = {
  grant_on_date: {
    title: 'Grant access until a date',
    sentence: (email) => `Grant forum access to ${email} now, until the date and time below.`,
    tone: 'primary',
  },
  revoke_on_date: {
    title: 'Revoke access on a date',
    sentence: (email) => `Revoke forum access for ${email} at the date and time below.`,
    tone: 'danger',
  },
};

/**
 * Asks for the date of a dated access action (Radix Dialog): a datetime-local input labelled
 * 'Date and time (UTC)' that starts at tomorrow 09:00 UTC (§9), Cancel and Confirm. The value is
 * read as UTC and emitted in the wire form (toWireDateTime). Confirm is disabled while the input
 * is incomplete.
 */
export function AccessDateDialog({
  isOpen,
  kind,
  email,
  now,
  onConfirm,
  onCancel,
  returnFocusRef,
}: AccessDateDialogProps) {
  const copy = COPY[kind];
  return (
    <Dialog.Root
      open={isOpen}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          data-kind={kind}
          onCloseAutoFocus={(event) => {
            if (!returnFocusRef?.current) return;
            event.preventDefault();
            returnFocusRef.current.focus();
          }}
        >
          <Dialog.Title className={styles.title}>{copy.title}</Dialog.Title>
          <Dialog.Description className={styles.description}>
            {copy.sentence(email)}
          </Dialog.Description>
          <DateForm now={now} tone={copy.tone} onConfirm={onConfirm} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Props of {@link DateForm}. */
interface DateFormProps {
  /** The instant the default date is counted from. */
  now?: Date;
  /** Confirm button style. */
  tone: 'primary' | 'danger';
  /** Called with the wire date-time on Confirm (or Enter). */
  onConfirm: (wireDateTime: string) => void;
}

/** The dialog's form; mounted per opening, so its value restarts at the default. */
function DateForm({ now, tone, onConfirm }: DateFormProps) {
  const hintId = useId();
  const [value, setValue] = useState(() => defaultActionDateTimeLocal(now ?? new Date()));
  const wire = toWireDateTime(value);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (wire) onConfirm(wire);
  }

  return (
    <form className={styles.form} onSubmit={handleSubmit}>
      <div className={styles.field}>
        <TextField
          label="Date and time (UTC)"
          type="datetime-local"
          required
          aria-describedby={hintId}
          value={value}
          onValueChange={setValue}
        />
        {/* The picker shows the browser's locale format; restate the instant as the console shows times (§9). */}
        <p id={hintId} className={styles.hint} aria-live="polite">
          {wire ? `Chosen time: ${formatUtcDateTime(wire)} UTC.` : 'Choose a date and a time.'}
        </p>
      </div>
      <div className={styles.buttons}>
        <Dialog.Close asChild>
          <Button>Cancel</Button>
        </Dialog.Close>
        <Button type="submit" variant={tone} disabled={!wire}>
          Confirm
        </Button>
      </div>
    </form>
  );
}
