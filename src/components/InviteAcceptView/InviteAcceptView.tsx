import { useEffect, useId, useRef, type FormEvent } from 'react';
import { formatUtcDateTime } from '../../domain/format';
import { AuthPanel } from '../AuthPanel';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { TextField } from '../Field';
import styles from './InviteAcceptView.module.css';

/** What the invitation page shows (docs/api.md POST /auth/invite/check, /auth/invite/accept). */
export type InviteAcceptState =
  | { status: 'checking' }
  | { status: 'invalid' }
  | { status: 'error'; message: string }
  | {
      status: 'form';
      email: string;
      name: string;
      /** The role the owner chose, as shown (e.g. 'Support'). */
      roleLabel: string;
      /** When the link stops working (ISO 8601 UTC). */
      expiresAt: string;
      isSaving: boolean;
      /** Why the password was refused (the server's sentence, or the fields do not match). */
      error: string | null;
    }
  | { status: 'done'; email: string };

/** Props of {@link InviteAcceptView}. */
export interface InviteAcceptViewProps {
  state: InviteAcceptState;
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  /** 'Set password' pressed (never while saving). */
  onSubmit: () => void;
  /** The sign-in page's address, for the link after success and from an invalid invitation. */
  signInHref: string;
}

/**
 * The page an invited operator opens from their one-time link (/admin/invite/<token>): who the
 * invitation is for and their role, then a new password (at least 12 characters besides spaces,
 * not a common password: the server decides and says why) typed twice. After it is set, a link to
 * sign in. An unknown, used or expired link says so and sends them to an owner.
 */
export function InviteAcceptView({
  state,
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  onSubmit,
  signInHref,
}: InviteAcceptViewProps) {
  const headingId = useId();
  const ruleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const isForm = state.status === 'form';

  useEffect(() => {
    if (!isForm) return;
    const field = formRef.current?.elements.namedItem('new-password');
    if (field instanceof HTMLInputElement) field.focus();
  }, [isForm]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.status === 'form' && !state.isSaving) onSubmit();
  }

  return (
    <AuthPanel heading="Set up your account" headingId={headingId}>
      {state.status === 'checking' ? (
        <p className={styles.text} role="status">
          Checking your invitation…
        </p>
      ) : null}
      {state.status === 'invalid' ? (
        <>
          <Banner tone="danger">
            This invitation link is not valid any more: it was used, replaced, or is older than 72
            hours. Ask an owner for a new one.
          </Banner>
          <a className={styles.link} href={signInHref}>
            Go to sign-in
          </a>
        </>
      ) : null}
      {state.status === 'error' ? <Banner tone="danger">Error: {state.message}</Banner> : null}
      {state.status === 'done' ? (
        <>
          <Banner tone="success">Your password is set. Sign in as {state.email}.</Banner>
          <a className={styles.link} href={signInHref}>
            Sign in
          </a>
        </>
      ) : null}
      {state.status === 'form' ? (
        <form
          ref={formRef}
          className={styles.form}
          aria-labelledby={headingId}
          noValidate
          onSubmit={handleSubmit}
        >
          <p className={styles.text}>
            {state.name}, you are invited as <strong>{state.roleLabel}</strong> with{' '}
            <strong className={styles.email}>{state.email}</strong>. Choose your password; the link
            works until {formatUtcDateTime(state.expiresAt)} UTC.
          </p>
          {state.error ? <Banner tone="danger">{state.error}</Banner> : null}
          <input
            type="email"
            name="username"
            value={state.email}
            autoComplete="username"
            readOnly
            hidden
          />
          <TextField
            label="New password"
            name="new-password"
            type="password"
            autoComplete="new-password"
            aria-describedby={ruleId}
            value={password}
            onValueChange={onPasswordChange}
          />
          <p id={ruleId} className={styles.rule}>
            At least 12 characters besides spaces, and not a password that is common or has leaked.
          </p>
          <TextField
            label="Confirm new password"
            name="confirm-password"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onValueChange={onConfirmationChange}
          />
          <Button
            type="submit"
            variant="primary"
            className={styles.submit}
            disabled={state.isSaving}
            aria-busy={state.isSaving}
          >
            {state.isSaving ? 'Setting password…' : 'Set password'}
          </Button>
        </form>
      ) : null}
    </AuthPanel>
  );
}
