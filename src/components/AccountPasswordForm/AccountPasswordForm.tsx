import { useId, useState, type FormEvent } from 'react';
import { PASSWORD_RULE } from '../../domain/account';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { TextField } from '../Field';
import styles from './AccountPasswordForm.module.css';

/**
 * Where a password change stands: nothing sent, sending, refused (the server's message next to
 * the field it is about: `current` for INCORRECT_PASSWORD, `next` for WEAK_PASSWORD, `form` for
 * anything else), or done with the number of other sessions it ended.
 */
export type PasswordChangeState =
  | { status: 'idle' }
  | { status: 'saving' }
  | { status: 'error'; field: 'current' | 'next' | 'form'; message: string }
  | { status: 'done'; sessionsEnded: number };

/** Props of {@link AccountPasswordForm}. */
export interface AccountPasswordFormProps {
  /** The last change's state. */
  state: PasswordChangeState;
  /** Change password was pressed with matching new passwords (POST /auth/password). */
  onSubmit: (values: { current: string; next: string }) => void;
}

/** "Ended 2 other sessions." and its singular and zero forms. */
function endedSentence(count: number): string {
  if (count === 0) return 'No other session was open.';
  return `${count} other ${count === 1 ? 'session was' : 'sessions were'} ended: sign in there again with the new password.`;
}

/**
 * Change password: Current password, New password with the rule as
 * help text, Confirm new password. A mismatch is caught here; the server's refusals show next to
 * the field they are about. After a change the fields empty and the result says how many other
 * sessions were ended.
 */
export function AccountPasswordForm({ state, onSubmit }: AccountPasswordFormProps) {
  const ids = { currentError: useId(), rule: useId(), nextError: useId(), confirmError: useId() };
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [isMismatch, setIsMismatch] = useState(false);
  const [seenStatus, setSeenStatus] = useState(state.status);
  // A finished change empties the fields: the old and new passwords should not stay on screen.
  if (seenStatus !== state.status) {
    setSeenStatus(state.status);
    if (state.status === 'done') {
      setCurrent('');
      setNext('');
      setConfirm('');
    }
  }

  const isSaving = state.status === 'saving';
  const error = state.status === 'error' ? state : null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (next !== confirm) {
      setIsMismatch(true);
      return;
    }
    setIsMismatch(false);
    onSubmit({ current, next });
  }

  return (
    <form className={styles.form} onSubmit={handleSubmit} noValidate>
      <div className={styles.group}>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          value={current}
          onValueChange={setCurrent}
          aria-invalid={error?.field === 'current' || undefined}
          aria-describedby={error?.field === 'current' ? ids.currentError : undefined}
        />
        {error?.field === 'current' ? (
          <p className={styles.fieldError} role="alert" id={ids.currentError}>
            {error.message}
          </p>
        ) : null}
      </div>
      <div className={styles.group}>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          value={next}
          onValueChange={setNext}
          aria-invalid={error?.field === 'next' || undefined}
          aria-describedby={error?.field === 'next' ? `${ids.nextError} ${ids.rule}` : ids.rule}
        />
        {error?.field === 'next' ? (
          <p className={styles.fieldError} role="alert" id={ids.nextError}>
            {error.message}
          </p>
        ) : null}
        <p className={styles.hint} id={ids.rule}>
          {PASSWORD_RULE}
        </p>
      </div>
      <div className={styles.group}>
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onValueChange={(value) => {
            setConfirm(value);
            if (value === next) setIsMismatch(false);
          }}
          aria-invalid={isMismatch || undefined}
          aria-describedby={isMismatch ? ids.confirmError : undefined}
        />
        {isMismatch ? (
          <p className={styles.fieldError} role="alert" id={ids.confirmError}>
            The new passwords do not match.
          </p>
        ) : null}
      </div>
      {error?.field === 'form' ? <Banner tone="danger">{error.message}</Banner> : null}
      {state.status === 'done' ? (
        <Banner tone="success">
          Your password is changed. {endedSentence(state.sessionsEnded)}
        </Banner>
      ) : null}
      <div className={styles.buttons}>
        <Button
          type="submit"
          variant="primary"
          disabled={isSaving || !current || !next || !confirm}
          aria-busy={isSaving || undefined}
        >
          Change password
        </Button>
      </div>
    </form>
  );
}
