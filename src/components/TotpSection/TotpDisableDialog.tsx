import { useId, useState, type FormEvent, type RefObject } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { isOtpCode } from '../../domain/account';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { TextField } from '../Field';
import styles from './TotpSection.module.css';

/**
 * The turn-off form's state: closed, or open (maybe sending) with the server's last refusal:
 * next to the password (INCORRECT_PASSWORD), next to the code (OTP_INVALID), or for the whole
 * form (TOTP_REQUIRED_BY_POLICY, anything else).
 */
export type TotpDisableState =
  | { status: 'closed' }
  | {
      status: 'open';
      isSubmitting: boolean;
      error: { field: 'password' | 'otp' | 'form'; message: string } | null;
    };

/** Props of {@link TotpDisableDialog}. */
export interface TotpDisableDialogProps {
  /** Whether the dialog is open, and its last refusal. */
  state: TotpDisableState;
  /** Turn off was pressed (POST /auth/totp/disable). */
  onSubmit: (values: { password: string; otp: string }) => void;
  /** Cancel or Escape. */
  onCancel: () => void;
  /** Where focus goes when the dialog closes (the button that opened it, or what replaced it). */
  returnFocusRef: RefObject<HTMLElement | null>;
}

/**
 * Asks for the password and a current code before two-factor sign-in is turned off (Radix
 * Dialog), so a borrowed unlocked browser cannot turn it off.
 */
export function TotpDisableDialog({
  state,
  onSubmit,
  onCancel,
  returnFocusRef,
}: TotpDisableDialogProps) {
  return (
    <Dialog.Root
      open={state.status === 'open'}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          onCloseAutoFocus={(event) => {
            if (!returnFocusRef.current) return;
            event.preventDefault();
            returnFocusRef.current.focus();
          }}
        >
          <Dialog.Title className={styles.dialogTitle}>Turn off two-factor sign-in?</Dialog.Title>
          <Dialog.Description className={styles.description}>
            Signing in will then need only your password. Enter your password and a current code to
            confirm.
          </Dialog.Description>
          {state.status === 'open' ? (
            <DisableForm
              isSubmitting={state.isSubmitting}
              error={state.error}
              onSubmit={onSubmit}
            />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Props of {@link DisableForm}. */
interface DisableFormProps {
  isSubmitting: boolean;
  error: { field: 'password' | 'otp' | 'form'; message: string } | null;
  onSubmit: (values: { password: string; otp: string }) => void;
}

/** The dialog's form; mounted per opening, so it starts empty each time. */
function DisableForm({ isSubmitting, error, onSubmit }: DisableFormProps) {
  const passwordErrorId = useId();
  const otpErrorId = useId();
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password && isOtpCode(otp)) onSubmit({ password, otp: otp.replace(/\s+/g, '') });
  }

  return (
    <form className={styles.dialogForm} onSubmit={handleSubmit} noValidate>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onValueChange={setPassword}
        aria-invalid={error?.field === 'password' || undefined}
        aria-describedby={error?.field === 'password' ? passwordErrorId : undefined}
      />
      {error?.field === 'password' ? (
        <p className={styles.fieldError} role="alert" id={passwordErrorId}>
          {error.message}
        </p>
      ) : null}
      <TextField
        label="Code from your authenticator app"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        required
        value={otp}
        onValueChange={setOtp}
        aria-invalid={error?.field === 'otp' || undefined}
        aria-describedby={error?.field === 'otp' ? otpErrorId : undefined}
      />
      {error?.field === 'otp' ? (
        <p className={styles.fieldError} role="alert" id={otpErrorId}>
          {error.message}
        </p>
      ) : null}
      {error?.field === 'form' ? <Banner tone="danger">{error.message}</Banner> : null}
      <div className={styles.dialogButtons}>
        <Dialog.Close asChild>
          <Button>Cancel</Button>
        </Dialog.Close>
        <Button
          type="submit"
          variant="danger"
          disabled={isSubmitting || !password || !isOtpCode(otp)}
          aria-busy={isSubmitting || undefined}
        >
          Turn off
        </Button>
      </div>
    </form>
  );
}
