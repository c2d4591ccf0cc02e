import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { TextField } from '../Field';
import { PRODUCT_TITLE, VERSION_LABEL } from '../AppLayout/brand';
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
}

/**
 * The Admin Login screen's view (§2 Login screen): product title and version, the amber notice
 * and red error banners, and the Email / Password form. On mount it focuses the first empty
 * field (the password when the email is pre-filled).
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
}: LoginViewProps) {
  const headingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [firstFocus] = useState<'email' | 'password'>(() =>
    email.trim() === '' ? 'email' : 'password',
  );

  useEffect(() => {
    const field = formRef.current?.elements.namedItem(firstFocus);
    if (field instanceof HTMLInputElement) field.focus();
  }, [firstFocus]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSigningIn) return;
    onSubmit();
  }

  return (
    <main className={styles.page}>
      <div className={styles.panel}>
        <div className={styles.brand}>
          <span className={styles.title}>{PRODUCT_TITLE}</span>
          <span className={styles.version}>{VERSION_LABEL}</span>
        </div>
        <h1 className={styles.heading} id={headingId}>
          Admin Login
        </h1>

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
          <Button
            type="submit"
            variant="primary"
            className={styles.submit}
            disabled={isSigningIn}
            aria-busy={isSigningIn}
          >
            {isSigningIn ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </div>
    </main>
  );
}
