import { useId } from 'react';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { CopyButton } from '../CopyButton';
import styles from './RecoveryCodes.module.css';

/** Props of {@link RecoveryCodes}. */
export interface RecoveryCodesProps {
  /** The 10 single-use codes of POST /auth/totp/enable, in the order the server sent them. */
  codes: readonly string[];
  /** Download was pressed: the screen saves the codes as a .txt file. */
  onDownload: () => void;
  /** "I have stored them" was pressed: the codes leave the screen for good. */
  onAcknowledge: () => void;
  /** How Copy writes to the clipboard (the Clipboard API unless a story passes its own). */
  onCopy?: (text: string) => Promise<void>;
}

/**
 * The recovery codes, shown once right after two-factor sign-in is turned on: a
 * warning to store them now, the codes as a list, Copy, Download (.txt), and the button that
 * confirms they are stored.
 */
export function RecoveryCodes({ codes, onDownload, onAcknowledge, onCopy }: RecoveryCodesProps) {
  const headingId = useId();
  return (
    <section className={styles.box} aria-labelledby={headingId}>
      <h4 className={styles.title} id={headingId}>
        Recovery codes
      </h4>
      <Banner tone="warning">
        Store these codes now: they are shown once. Each one signs you in once if you lose your
        authenticator app.
      </Banner>
      <ul className={styles.codes} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className={styles.code}>
            {code}
          </li>
        ))}
      </ul>
      <div className={styles.buttons}>
        <CopyButton text={codes.join('\n')} label="Copy codes" onCopy={onCopy} />
        <Button onClick={onDownload}>Download codes (.txt)</Button>
        <Button variant="primary" onClick={onAcknowledge}>
          I have stored them
        </Button>
      </div>
    </section>
  );
}
