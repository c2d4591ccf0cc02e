import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { TextField } from '../Field';
import { AuthPanel } from '../AuthPanel';
import styles from './LoginView.module.css';

/** Props of {@link LoginView}. Field values are controlled by the screen. */
export interface LoginViewProps {
  /** The Email field's value; the screen pre-fills the default admin username (§2 Login screen). */
  email: string;
  /** The Password field's value. */
  password: string;
  /** Called with the new Email value on every keystroke. */
  onEmailChange: (email: string) => void;
  /** Called with the new Password value on every keystroke. */
  onPasswordChange: (password: string) => void;
  /** Called when the form is submitted ('Sign in' or Enter); never while signing in. No client-side validation (§5). */
  onSubmit: () => void;
  /** True while the login call is in flight: the button reads 'Signing in…' and is disabled (§4 Session). */
  isSigningIn: boolean;
  /** The amber notice (§2, §8), e.g. 'Backend database is currently unavailable.'; does not block signing in. */
  notice?: string;
  /** The red error (§8 login codes, fallback 'Login failed'), announced as an alert. */
  error?: string;
  /**
   * The second step of an operator with two-factor sign-in (docs/api.md: the password was right,
   * the server answered OTP_REQUIRED): the form then asks for the code instead of the password.
   */
  secondFactor?: SecondFactorStep;
}

/** The two-factor step of {@link LoginView}. */
export interface SecondFactorStep {
  /** The typed code: 6 digits from the authenticator app, or a recovery code. */
  code: string;
  onCodeChange: (code: string) => void;
  /** True when the operator types a recovery code instead of an app code. */
  useRecoveryCode: boolean;
  /** Switches between the app code and a recovery code. */
  onToggleRecoveryCode: () => void;
  /** Goes back to the email and password (another account, a typo). */
  onBack: () => void;
}

/**
 * The Admin Login screen's view (§2 Login screen): product title and version, the amber notice
 * and red error banners, and the Email / Password form, or, for an operator with two-factor
 * sign-in, the code step. On mount it focuses the first empty field (the password when the email
 * is pre-filled); the code step focuses its code field.
 */
export function LoginView({
  email,
  password,
  onEmailChange,
  onPasswordChange,
  onSubmit,
  isSigningIn,
  notice,
  error,
  secondFactor,
}: LoginViewProps) {
  const headingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [firstFocus] = useState<'email' | 'password'>(() =>
    email.trim() === '' ? 'email' : 'password',
  );
  const step = secondFactor ? (secondFactor.useRecoveryCode ? 'recovery' : 'otp') : firstFocus;

  // The first empty field on arrival, and the code field whenever the two-factor step opens or
  // switches between an app code and a recovery code.
  useEffect(() => {
    const field = formRef.current?.elements.namedItem(step === 'recovery' ? 'otp' : step);
    if (field instanceof HTMLInputElement) field.focus();
  }, [step]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSigningIn) return;
    onSubmit();
  }

  return (
    <AuthPanel heading="Admin Login" headingId={headingId}>
      {notice || error ? (
        <div className={styles.messages}>
          {notice ? <Banner tone="warning">{notice}</Banner> : null}
          {error ? <Banner tone="danger">{error}</Banner> : null}
        </div>
      ) : null}

      <form
        ref={formRef}
        className={styles.form}
        aria-labelledby={headingId}
        noValidate
        onSubmit={handleSubmit}
      >
        {secondFactor ? (
          <>
            <p className={styles.hint}>
              {secondFactor.useRecoveryCode
                ? `Enter one of the recovery codes you saved for ${email}. Each code works once.`
                : `Enter the 6-digit code your authenticator app shows for ${email}.`}
            </p>
            <TextField
              key={secondFactor.useRecoveryCode ? 'recovery' : 'otp'}
              label={secondFactor.useRecoveryCode ? 'Recovery code' : 'Authentication code'}
              name="otp"
              type="text"
              inputMode={secondFactor.useRecoveryCode ? 'text' : 'numeric'}
              autoComplete="one-time-code"
              spellCheck={false}
              maxLength={secondFactor.useRecoveryCode ? 40 : 6}
              value={secondFactor.code}
              onValueChange={secondFactor.onCodeChange}
            />
          </>
        ) : (
          <>
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="username"
              spellCheck={false}
              value={email}
              onValueChange={onEmailChange}
            />
            <TextField
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onValueChange={onPasswordChange}
            />
          </>
        )}
        <Button
          type="submit"
          variant="primary"
          className={styles.submit}
          disabled={isSigningIn}
          aria-busy={isSigningIn}
        >
          {isSigningIn ? 'Signing in…' : secondFactor ? 'Verify' : 'Sign in'}
        </Button>
        {secondFactor ? (
          <div className={styles.secondary}>
            <Button type="button" variant="ghost" onClick={secondFactor.onToggleRecoveryCode}>
              {secondFactor.useRecoveryCode ? 'Use an authentication code' : 'Use a recovery code'}
            </Button>
            <Button type="button" variant="ghost" onClick={secondFactor.onBack}>
              Back
            </Button>
          </div>
        ) : null}
      </form>
    </AuthPanel>
  );
}
