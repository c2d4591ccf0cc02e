import { useId, useState, type FormEvent } from 'react';
import {
  INVITE_TTL_HOURS,
  ROLE_DESCRIPTIONS,
  type InviteOperatorInput,
  type OperatorInvite,
} from '../../domain/account';
import { formatUtcDateTime } from '../../domain/format';
import { isRole, ROLE_LABELS, ROLES, type Role } from '../../domain/roles';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { CopyButton } from '../CopyButton';
import { SelectField, TextField } from '../Field';
import styles from './InviteOperatorForm.module.css';

/**
 * Where an invitation stands: nothing sent, sending, refused (next to the email for
 * OPERATOR_EXISTS, for the whole form otherwise), or made, with the link to hand over.
 */
export type InviteState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'error'; field: 'email' | 'form'; message: string }
  | { status: 'done'; invite: OperatorInvite };

/** Props of {@link InviteOperatorForm}. */
export interface InviteOperatorFormProps {
  /** The last invitation's state. */
  state: InviteState;
  /** "Invite operator" was pressed (POST /operators). */
  onSubmit: (values: InviteOperatorInput) => void;
  /** How Copy writes to the clipboard (the Clipboard API unless a story passes its own). */
  onCopy?: (text: string) => Promise<void>;
}

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/**
 * Invite an operator: email, name and role, each role's rights in one line,
 * then the one-time link to copy and hand over (no mail is sent) and when it expires.
 */
export function InviteOperatorForm({ state, onSubmit, onCopy }: InviteOperatorFormProps) {
  const ids = { emailError: useId(), roles: useId(), link: useId() };
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [seenStatus, setSeenStatus] = useState(state.status);
  // A made invitation empties the form for the next one; its link stays below until then.
  if (seenStatus !== state.status) {
    setSeenStatus(state.status);
    if (state.status === 'done') {
      setEmail('');
      setName('');
      setRole('viewer');
    }
  }

  const isSending = state.status === 'sending';
  const error = state.status === 'error' ? state : null;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (email.trim() && name.trim()) onSubmit({ email, name, role });
  }

  return (
    <div className={styles.wrap}>
      <form className={styles.form} onSubmit={handleSubmit} noValidate>
        <div className={styles.group}>
          <TextField
            label="Email"
            type="email"
            autoComplete="off"
            required
            value={email}
            onValueChange={setEmail}
            aria-invalid={error?.field === 'email' || undefined}
            aria-describedby={error?.field === 'email' ? ids.emailError : undefined}
          />
          {error?.field === 'email' ? (
            <p className={styles.fieldError} role="alert" id={ids.emailError}>
              {error.message}
            </p>
          ) : null}
        </div>
        <TextField
          label="Name"
          autoComplete="off"
          required
          maxLength={100}
          value={name}
          onValueChange={setName}
        />
        <div className={styles.group}>
          <SelectField
            label="Role"
            value={role}
            options={ROLE_OPTIONS}
            onValueChange={(value) => {
              if (isRole(value)) setRole(value);
            }}
            aria-describedby={ids.roles}
          />
          <ul className={styles.roles} id={ids.roles}>
            {ROLES.map((r) => (
              <li key={r} data-selected={r === role || undefined}>
                <strong>{ROLE_LABELS[r]}</strong>: {ROLE_DESCRIPTIONS[r]}
              </li>
            ))}
          </ul>
        </div>
        {error?.field === 'form' ? <Banner tone="danger">{error.message}</Banner> : null}
        <div className={styles.buttons}>
          <Button
            type="submit"
            variant="primary"
            disabled={isSending || !email.trim() || !name.trim()}
            aria-busy={isSending || undefined}
          >
            Invite operator
          </Button>
        </div>
      </form>
      {state.status === 'done' ? (
        <section className={styles.result} aria-label="Invitation">
          <p className={styles.resultText}>
            {state.invite.name} ({state.invite.email}) is invited. No mail is sent: give them this
            link yourself. It works once and expires{' '}
            <time dateTime={state.invite.expiresAt}>
              {formatUtcDateTime(state.invite.expiresAt)} UTC
            </time>{' '}
            ({INVITE_TTL_HOURS} hours).
          </p>
          <label className={styles.linkLabel} htmlFor={ids.link}>
            Invitation link
          </label>
          <div className={styles.linkRow}>
            <input
              id={ids.link}
              className={styles.link}
              readOnly
              value={state.invite.url}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={state.invite.url} label="Copy link" onCopy={onCopy} />
          </div>
        </section>
      ) : null}
    </div>
  );
}
