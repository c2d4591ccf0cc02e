import { useEffect, useId, useRef, type ReactNode } from 'react';
import { AccountPasswordForm, type AccountPasswordFormProps } from '../AccountPasswordForm';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { OperatorsSection, type OperatorsSectionProps } from '../OperatorsSection';
import { SessionsTable, type SessionsTableProps } from '../SessionsTable';
import { SettingsCard } from '../SettingsCard';
import { TotpSection, type TotpSectionProps } from '../TotpSection';
import styles from './SettingsView.module.css';

/**
 * Props of {@link SettingsView}: the whole screen (`mode: 'full'`); only the two-factor set-up an
 * owner's policy requires before anything else (`mode: 'enrol'`, /settings?enrol=1); or only the
 * placeholder (`mode: 'basic'`, the default) while who-am-I has not named an operator, as a
 * backend without operator accounts never does (it has no account routes either).
 */
export type SettingsViewProps =
  | { mode?: 'basic' }
  | {
      mode: 'full';
      /** Change password. */
      password: AccountPasswordFormProps;
      /** My sessions. */
      sessions: SessionsTableProps;
      /** Two-factor sign-in. */
      totp: TotpSectionProps;
      /** Operators, for owners; null hides the section (every other role). */
      operators: OperatorsSectionProps | null;
    }
  | {
      mode: 'enrol';
      /** Two-factor sign-in. */
      totp: TotpSectionProps;
      /** "Continue" was pressed once two-factor sign-in is on: go to the dashboard. */
      onContinue: () => void;
    };

/**
 * The Settings screen (§2 Settings): My account (password, sessions, two-factor
 * sign-in) for every operator, Operators for owners, and the placeholder for environment and
 * integration settings. In enrolment mode only the two-factor set-up shows, then Continue.
 * With no props, only the heading and the placeholder.
 */
export function SettingsView(props: SettingsViewProps) {
  const headingId = useId();
  return (
    <section className={styles.view} aria-labelledby={headingId}>
      <h1 className={styles.heading} id={headingId}>
        Settings
      </h1>
      {props.mode === 'enrol' ? (
        <Enrolment totp={props.totp} onContinue={props.onContinue} />
      ) : props.mode !== 'full' ? (
        <Placeholder />
      ) : (
        <>
          <Part title="My account">
            <SettingsCard title="Change password">
              <AccountPasswordForm {...props.password} />
            </SettingsCard>
            <SettingsCard title="Two-factor sign-in">
              <TotpSection {...props.totp} />
            </SettingsCard>
            <SettingsCard
              title="My sessions"
              description="Browsers signed in as you. End any you do not recognise."
            >
              <SessionsTable {...props.sessions} />
            </SettingsCard>
          </Part>
          {props.operators ? (
            <Part title="Operators">
              <OperatorsSection {...props.operators} />
            </Part>
          ) : null}
          <Placeholder />
        </>
      )}
    </section>
  );
}

/** Where environment and integration settings will go (§2 Settings). */
function Placeholder() {
  return (
    <div className={styles.placeholder}>
      <p className={styles.text}>Environment and integration settings will go here.</p>
    </div>
  );
}

/** One titled part of the screen (an h2 region). */
function Part({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={styles.part} aria-labelledby={headingId}>
      <h2 className={styles.partHeading} id={headingId}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Enrolment mode: why, the set-up, then Continue (focused when it appears). */
function Enrolment({ totp, onContinue }: { totp: TotpSectionProps; onContinue: () => void }) {
  const continueRef = useRef<HTMLButtonElement>(null);
  const isOn = totp.state.step === 'on';
  useEffect(() => {
    if (isOn) continueRef.current?.focus();
  }, [isOn]);
  return (
    <>
      <Banner tone="warning">
        An owner requires two-factor sign-in for every operator. Set it up to continue: the rest of
        the console opens once it is on.
      </Banner>
      <SettingsCard title="Two-factor sign-in" headingLevel={2}>
        {isOn ? (
          <div className={styles.enrolled}>
            <p className={styles.done}>Two-factor sign-in is on. You can use the console now.</p>
            <div>
              <Button ref={continueRef} variant="primary" onClick={onContinue}>
                Continue
              </Button>
            </div>
          </div>
        ) : (
          <TotpSection {...totp} />
        )}
      </SettingsCard>
    </>
  );
}
