import { STREAM_STATE_LABELS, type StreamState } from '../../domain/live';
import styles from './StreamStatus.module.css';

/** Props of {@link StreamStatus}. */
export interface StreamStatusProps {
  /** The live stream's state (src/domain/live.ts StreamState). */
  state: StreamState;
  /**
   * Hides the visible text; the accessible name stays (also the tooltip). A container may also
   * hide the text (`data-part="label"`) or the whole indicator (`data-part="stream-status"`) with
   * CSS, e.g. in a narrow header where the Activity button shows the state's icon instead.
   */
  isLabelHidden?: boolean;
}

/** The indicator's accessible name: 'Live updates: Connected', 'Live updates: Offline', … */
export function streamStatusName(state: StreamState): string {
  return `Live updates: ${STREAM_STATE_LABELS[state]}`;
}

/**
 * The header's live-stream indicator: a status region named 'Live updates: <state>' whose text says
 * the state ('Connecting…', 'Connected', 'Reconnecting…', 'Offline'), so a change is announced
 * politely. The state is never told by colour alone: each has its own icon shape (a filled dot, a
 * ring, a broken ring, a crossed dot) as well as its text.
 */
export function StreamStatus({ state, isLabelHidden = false }: StreamStatusProps) {
  const name = streamStatusName(state);
  return (
    <span
      role="status"
      aria-label={name}
      className={styles.status}
      data-state={state}
      data-part="stream-status"
      title={name}
    >
      <StreamStateIcon state={state} className={styles.icon} />
      <span className={isLabelHidden ? 'visually-hidden' : styles.label} data-part="label">
        <span className="visually-hidden">Live updates: </span>
        {STREAM_STATE_LABELS[state]}
      </span>
    </span>
  );
}

/** Props of {@link StreamStateIcon}. */
export interface StreamStateIconProps {
  /** The state drawn. */
  state: StreamState;
  /** Sizing class of the caller. */
  className?: string;
  /** A styling hook for containers (`data-part`). */
  part?: string;
}

/**
 * The state's icon: a distinct shape per state (a filled dot, a ring, a turning arrow, a crossed
 * ring), drawn in the current text colour, so the state is never told by colour alone. Decorative.
 */
export function StreamStateIcon({ state, className, part }: StreamStateIconProps) {
  return (
    <svg
      className={className}
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      data-state={state}
      data-part={part}
    >
      {state === 'connected' ? (
        <>
          <circle cx="8" cy="8" r="7" className={styles.halo} />
          <circle cx="8" cy="8" r="4" className={styles.dot} />
        </>
      ) : state === 'connecting' ? (
        <circle cx="8" cy="8" r="5" className={styles.ring} />
      ) : state === 'reconnecting' ? (
        <path d="M13 8a5 5 0 1 1-1.46-3.54M13 3v3h-3" className={styles.ring} />
      ) : (
        <>
          <circle cx="8" cy="8" r="5" className={styles.ring} />
          <path d="M3 13 13 3" className={styles.ring} />
        </>
      )}
    </svg>
  );
}
