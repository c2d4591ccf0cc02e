import styles from './SoundToggle.module.css';

/** Props of {@link SoundToggle}. */
export interface SoundToggleProps {
  /** Whether sound alerts play on live subscription events (§4 Sound alerts). The screen persists it under mg_sound_enabled. */
  isEnabled: boolean;
  /** Called with the next value (the opposite of `isEnabled`) when the operator flips the switch. */
  onToggle: (next: boolean) => void;
  /**
   * Hides the visible 'Sound alerts' text in a compact header; the accessible name stays. (A
   * container may also hide it with CSS through the label's `data-part="label"` hook.)
   */
  isLabelHidden?: boolean;
}

/**
 * The header's 'Sound alerts' switch (§2 Layout, §4): a button with role="switch" whose
 * aria-checked carries the state. Turning it on is a user gesture, so the screen can prime audio in `onToggle`.
 */
export function SoundToggle({ isEnabled, onToggle, isLabelHidden = false }: SoundToggleProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={isEnabled}
      className={styles.toggle}
      data-state={isEnabled ? 'on' : 'off'}
      data-label={isLabelHidden ? 'hidden' : 'visible'}
      title={isLabelHidden ? 'Sound alerts' : undefined}
      onClick={() => onToggle(!isEnabled)}
    >
      <svg
        className={styles.icon}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="M11 5 6 9H2v6h4l5 4V5z" />
        {isEnabled ? (
          <>
            <path d="M15.54 8.46a5 5 0 0 1 0 7.07" />
            <path d="M19.07 4.93a10 10 0 0 1 0 14.14" />
          </>
        ) : (
          <>
            <path d="m23 9-6 6" />
            <path d="m17 9 6 6" />
          </>
        )}
      </svg>
      <span className={isLabelHidden ? 'visually-hidden' : styles.label} data-part="label">
        Sound alerts
      </span>
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
    </button>
  );
}
