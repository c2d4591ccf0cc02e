/**
 * The Admin Login screen's container (§2 Login screen, §4 Session, §8 login codes).
 * - On load it asks who-am-I; when the operator is signed in (and a token is stored — §6: every
 *   other page needs one) it navigates onward at once, to the remembered path or '/', replacing.
 * - Otherwise it pings health and database health and shows the amber notice for a database that
 *   is down or a backend that did not answer.
 * - Submitting goes idle → signing in ('Signing in…') → token stored and redirect, or the red
 *   error of the §8 code table (fallback 'Login failed'); DB_UNAVAILABLE shows the amber notice
 *   instead and does not block. A failed sign-in puts focus back in the Password field; the
 *   error banner is an alert, so it is announced.
 * - An operator with two-factor sign-in: the right password answers OTP_REQUIRED, and the form
 *   asks for the authenticator code (or a recovery code), sent with the same email and password;
 *   a wrong code (OTP_INVALID) shows its error and keeps the code step.
 * - An operator an owner requires to enrol in two-factor sign-in goes to the enrolment first.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { backendCheckQueryOptions, useLogin, whoamiQueryOptions } from '../api/auth';
import { getConfig } from '../api/config';
import { hasToken } from '../api/token';
import { LOGIN_MESSAGES, backendNotice, loginBannerKind } from '../domain/auth';
import { LoginView } from '../components/LoginView';
import { ENROLMENT_PATH, useLoginRedirect } from './useLoginRedirect';

/** The /login route's screen. No props: everything comes from the API layer and the location. */
export function LoginScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { target, hasSessionExpired } = useLoginRedirect();
  const [email, setEmail] = useState(() => getConfig().defaultAdminEmail);
  const [password, setPassword] = useState('');
  const [codeStep, setCodeStep] = useState<{ code: string; recovery: boolean } | null>(null);
  const formAreaRef = useRef<HTMLDivElement>(null);
  const login = useLogin();

  const whoami = useQuery(whoamiQueryOptions());
  const isSignedIn = whoami.data?.ok === true && hasToken();
  const backend = useQuery({
    ...backendCheckQueryOptions(),
    enabled: !whoami.isPending && !isSignedIn,
  });

  if (isSignedIn) {
    return <Navigate to={whoami.data?.mustEnrolTotp ? ENROLMENT_PATH : target} replace />;
  }

  const result = login.isPending ? undefined : login.data;
  // Asking for the code is a step, not a failure.
  const failure = result && !result.ok && result.code !== 'OTP_REQUIRED' ? result : null;
  const failureKind = failure ? loginBannerKind(failure.code) : null;

  const notice =
    failureKind === 'notice' && failure
      ? failure.message
      : backend.data
        ? backendNotice(backend.data)
        : null;
  const error =
    failureKind === 'error' && failure
      ? failure.message
      : !result && !login.isPending && hasSessionExpired
        ? LOGIN_MESSAGES.INVALID_JWT
        : null;

  function focusField(name: 'password' | 'otp') {
    const field = formAreaRef.current?.querySelector<HTMLInputElement>(`input[name="${name}"]`);
    field?.focus();
    field?.select();
  }

  function handleSubmit() {
    if (login.isPending) return;
    const code = codeStep?.code.trim();
    login.mutate(
      {
        email,
        password,
        ...(codeStep && code ? (codeStep.recovery ? { recoveryCode: code } : { otp: code }) : {}),
      },
      {
        onSuccess: async (answer) => {
          if (answer.ok) {
            // An owner may require two-factor sign-in of an operator who has none yet.
            const who = await queryClient.fetchQuery(whoamiQueryOptions()).catch(() => null);
            void navigate(who?.mustEnrolTotp ? ENROLMENT_PATH : target, { replace: true });
          } else if (answer.code === 'OTP_REQUIRED') {
            setCodeStep({ code: '', recovery: false });
          } else if (codeStep) {
            focusField('otp');
          } else {
            focusField('password');
          }
        },
      },
    );
  }

  return (
    <div ref={formAreaRef}>
      <LoginView
        email={email}
        password={password}
        onEmailChange={setEmail}
        onPasswordChange={setPassword}
        onSubmit={handleSubmit}
        isSigningIn={login.isPending}
        notice={notice ?? undefined}
        error={error ?? undefined}
        secondFactor={
          codeStep
            ? {
                code: codeStep.code,
                onCodeChange: (code) => setCodeStep({ ...codeStep, code }),
                useRecoveryCode: codeStep.recovery,
                onToggleRecoveryCode: () => setCodeStep({ code: '', recovery: !codeStep.recovery }),
                onBack: () => {
                  setCodeStep(null);
                  setPassword('');
                  login.reset();
                },
              }
            : undefined
        }
      />
    </div>
  );
}
