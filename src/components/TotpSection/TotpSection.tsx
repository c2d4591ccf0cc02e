import { useEffect, useRef } from 'react';
import { Badge } from '../Badge';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { RecoveryCodes } from '../RecoveryCodes';
import { TotpDisableDialog, type TotpDisableState } from './TotpDisableDialog';
import { TotpSetupForm } from './TotpSetupForm';
import styles from './TotpSection.module.css';

/**
 * Where two-factor sign-in stands for the signed-in operator (RFC 6238): off (with the
 * last set-up failure, if any), a set-up starting, a set-up waiting for a code, the recovery codes
 * just issued (shown once), or on.
 */
export type TotpState =
  | { step: 'off'; error: string | null }
  | { step: 'starting' }
  | {
      step: 'setup';
      secret: string;
      otpauthUrl: string;
      isVerifying: boolean;
      error: string | null;
    }
  | { step: 'codes'; codes: readonly string[] }
  | { step: 'on' };

/** Props of {@link TotpSection}. */
export interface TotpSectionProps {
  /** Where two-factor sign-in stands. */
  state: TotpState;
  /** The turn-off dialog's state. */
  disable: TotpDisableState;
  /** "Set up two-factor sign-in" was pressed (POST /auth/totp/setup). */
  onSetUp: () => void;
  /** "Turn on" was pressed with a 6-digit code (POST /auth/totp/enable). */
  onEnable: (otp: string) => void;
  /** The set-up was cancelled. */
  onCancelSetup: () => void;
  /** Download was pressed on the recovery codes. */
  onDownloadCodes: () => void;
  /** "I have stored them" was pressed. */
  onAcknowledgeCodes: () => void;
  /** "Turn off two-factor sign-in" was pressed: open the dialog. */
  onDisableRequest: () => void;
  /** The dialog's Turn off was pressed (POST /auth/totp/disable). */
  onDisable: (values: { password: string; otp: string }) => void;
  /** The dialog was cancelled. */
  onDisableCancel: () => void;
  /** How Copy writes to the clipboard (the Clipboard API unless a story passes its own). */
  onCopy?: (text: string) => Promise<void>;
}

/**
 * Two-factor sign-in: its state in words, and the one next step (set up, confirm with a code,
 * store the recovery codes, or turn off). When a step replaces the button that led to it, focus
 * moves to the section's status line, so keyboard and screen-reader users keep their place.
 */
export function TotpSection({
  state,
  disable,
  onSetUp,
  onEnable,
  onCancelSetup,
  onDownloadCodes,
  onAcknowledgeCodes,
  onDisableRequest,
  onDisable,
  onDisableCancel,
  onCopy,
}: TotpSectionProps) {
  const statusRef = useRef<HTMLParagraphElement>(null);
  const actionRef = useRef<HTMLButtonElement>(null);
  const previousStep = useRef(state.step);
  useEffect(() => {
    if (previousStep.current === state.step) return;
    previousStep.current = state.step;
    if (state.step === 'off' || state.step === 'on') actionRef.current?.focus();
    else if (state.step !== 'starting') statusRef.current?.focus();
  }, [state.step]);

  const isOn = state.step === 'on';
  const hasTotp = isOn || state.step === 'codes';
  return (
    <div className={styles.section}>
      <p className={styles.status} ref={statusRef} tabIndex={-1}>
        <Badge tone={hasTotp ? 'success' : 'neutral'}>{hasTotp ? 'On' : 'Off'}</Badge>{' '}
        {statusSentence(state)}
      </p>
      {state.step === 'off' || state.step === 'starting' ? (
        <>
          {state.step === 'off' && state.error ? (
            <Banner tone="danger">{state.error}</Banner>
          ) : null}
          <div className={styles.buttons}>
            <Button
              ref={actionRef}
              variant="primary"
              onClick={onSetUp}
              disabled={state.step === 'starting'}
              aria-busy={state.step === 'starting' || undefined}
            >
              Set up two-factor sign-in
            </Button>
          </div>
        </>
      ) : null}
      {state.step === 'setup' ? (
        <TotpSetupForm
          secret={state.secret}
          otpauthUrl={state.otpauthUrl}
          isVerifying={state.isVerifying}
          error={state.error}
          onEnable={onEnable}
          onCancel={onCancelSetup}
          onCopy={onCopy}
        />
      ) : null}
      {state.step === 'codes' ? (
        <RecoveryCodes
          codes={state.codes}
          onDownload={onDownloadCodes}
          onAcknowledge={onAcknowledgeCodes}
          onCopy={onCopy}
        />
      ) : null}
      {isOn ? (
        <div className={styles.buttons}>
          <Button ref={actionRef} variant="danger" onClick={onDisableRequest}>
            Turn off two-factor sign-in
          </Button>
        </div>
      ) : null}
      <TotpDisableDialog
        state={disable}
        onSubmit={onDisable}
        onCancel={onDisableCancel}
        returnFocusRef={actionRef}
      />
    </div>
  );
}

/** The status line of each step. */
function statusSentence(state: TotpState): string {
  switch (state.step) {
    case 'off':
    case 'starting':
      return 'Signing in needs only your password. Add a code from an authenticator app on your phone.';
    case 'setup':
      return 'Set-up started: two-factor sign-in turns on once you enter a code from the app.';
    case 'codes':
      return 'Two-factor sign-in is on. Signing in now asks for a code from your authenticator app.';
    case 'on':
      return 'Signing in asks for your password and a code from your authenticator app.';
  }
}
