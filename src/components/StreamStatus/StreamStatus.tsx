import { STREAM_STATE_LABELS, type StreamState } from '../../domain/live';
import styles from './StreamStatus.module.css';

/** Props of {@link StreamStatus}. */
export interface StreamStatusProps {
  /** The live stream's state (src/domain/live.ts StreamState). */
  state: StreamState;
  /**
   * Hides the visible text in a compact header; the accessible name stays and the text becomes a
   * tooltip. (A container may also hide it with CSS through the text's `data-part="label"` hook.)
   */
  isLabelHidden?: boolean;
}

/** The indicator's accessible name: 'Live updates: Connected', 'Live updates: Offline', … */
export function streamStatusName(state: StreamState): string {
  return `Live updates: ${STREAM_STATE_LABELS[state]}`;
}

/**
 * The header's live-stream indicator (issue 9 Console): a status region named 'Live updates:
 * <state>' whose text says the state ('Connecting…', 'Connected', 'Reconnecting…', 'Offline'),
 * so a change is announced politely. The state is never told by colour alone: each has its own
 * icon shape (a filled dot, a ring, a broken ring, a crossed dot) as well as its text.
 */
export function StreamStatus({ state, isLabelHidden = false }: StreamStatusProps) {
  const name = streamStatusName(state);
  return (
    <span
      role="status"
      aria-label={name}
      className={styles.status}
      data-state={state}
      title={isLabelHidden ? name : undefined}
    >
      <StateIcon state={state} />
      <span className={isLabelHidden ? 'visually-hidden' : styles.label} data-part="label">
        <span className="visually-hidden">Live updates: </span>
        {STREAM_STATE_LABELS[state]}
      </span>
    </span>
  );
}

/** The state's icon: a distinct shape per state (not colour alone). Decorative. */
function StateIcon({ state }: { state: StreamState }) {
  return (
    <svg
      className={styles.icon}
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      data-state={state}
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
