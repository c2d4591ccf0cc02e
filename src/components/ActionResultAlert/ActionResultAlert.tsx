import { Banner } from '../Banner';
import { Button } from '../Button';
import styles from './ActionResultAlert.module.css';

/** Tone of an action result (§8): success 'OK …', warning 'Done, but …', danger a failure. */
export type ActionResultTone = 'success' | 'warning' | 'danger';

/** One action result to show: its tone and the §8 message, e.g. 'OK (Discourse updated)'. */
export interface ActionResultMessage {
  /** Colour and urgency of the message. */
  tone: ActionResultTone;
  /** The message text, already built by the screen from the action response (§8). */
  message: string;
}

/** Props of {@link ActionResultAlert}. */
export interface ActionResultAlertProps extends ActionResultMessage {
  /** Whom the action was for (e.g. the user's email), shown before the message; omit for none. */
  subject?: string;
  /** The Dismiss button was pressed. */
  onDismiss: () => void;
}

/**
 * The outcome of a forum-access action (§8 action results) in a live region: a failure (danger)
 * is announced at once (role=alert), other results politely (role=status). Dismiss removes it.
 * With several actions running, each result stands in its own alert, named by its `subject`.
 */
export function ActionResultAlert({ tone, subject, message, onDismiss }: ActionResultAlertProps) {
  return (
    <Banner
      tone={tone}
      action={
        <Button size="small" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      }
    >
      <span className={styles.message}>
        {subject ? <strong className={styles.subject}>{subject}:</strong> : null}
        {message}
      </span>
    </Banner>
  );
}
