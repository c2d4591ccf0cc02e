import { useId, useState, type FormEvent } from 'react';
import { groupSecret, isOtpCode } from '../../domain/account';
import { Button } from '../Button';
import { CopyButton } from '../CopyButton';
import { TextField } from '../Field';
import { QrCodeImage } from './QrCodeImage';
import styles from './TotpSection.module.css';

/** Props of {@link TotpSetupForm}. */
export interface TotpSetupFormProps {
  /** The new secret (base32) of POST /auth/totp/setup. */
  secret: string;
  /** Its otpauth:// URL, shown as a QR code. */
  otpauthUrl: string;
  /** The code is being checked (POST /auth/totp/enable). */
  isVerifying: boolean;
  /** The server's refusal of the last code (OTP_INVALID), or null. */
  error: string | null;
  /** Turn on was pressed with a 6-digit code. */
  onEnable: (otp: string) => void;
  /** Cancel was pressed: nothing changes, two-factor sign-in stays off. */
  onCancel: () => void;
  /** How Copy writes to the clipboard (the Clipboard API unless a story passes its own). */
  onCopy?: (text: string) => Promise<void>;
}

/**
 * The set-up of two-factor sign-in: the QR code, the key as text in groups of four (copyable),
 * and the code that proves the app has it. "Turn on" waits for six digits.
 */
export function TotpSetupForm({
  secret,
  otpauthUrl,
  isVerifying,
  error,
  onEnable,
  onCancel,
  onCopy,
}: TotpSetupFormProps) {
  const errorId = useId();
  const hintId = useId();
  const [otp, setOtp] = useState('');

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isOtpCode(otp)) onEnable(otp.replace(/\s+/g, ''));
  }

  return (
    <div className={styles.setup}>
      <ol className={styles.steps}>
        <li>
          <p className={styles.step}>
            Scan this QR code with your authenticator app (for example Google Authenticator,
            1Password or Aegis).
          </p>
          <QrCodeImage
            value={otpauthUrl}
            alt="QR code that adds MG Admin Console to your authenticator app"
          />
        </li>
        <li>
          <p className={styles.step}>Or enter this key in the app by hand:</p>
          <div className={styles.secretRow}>
            <code className={styles.secret}>{groupSecret(secret)}</code>
            <CopyButton text={secret} label="Copy key" size="small" onCopy={onCopy} />
          </div>
        </li>
        <li>
          <form className={styles.form} onSubmit={handleSubmit} noValidate>
            <TextField
              label="Code from your authenticator app"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              required
              value={otp}
              onValueChange={setOtp}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            />
            <p className={styles.hint} id={hintId}>
              The 6 digits the app shows now.
            </p>
            {error ? (
              <p className={styles.fieldError} role="alert" id={errorId}>
                {error}
              </p>
            ) : null}
            <div className={styles.buttons}>
              <Button
                type="submit"
                variant="primary"
                disabled={isVerifying || !isOtpCode(otp)}
                aria-busy={isVerifying || undefined}
              >
                Turn on
              </Button>
              <Button onClick={onCancel} disabled={isVerifying}>
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}
