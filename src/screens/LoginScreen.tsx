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
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { backendCheckQueryOptions, useLogin, whoamiQueryOptions } from '../api/auth';
import { getConfig } from '../api/config';
import { hasToken } from '../api/token';
import { LOGIN_MESSAGES, backendNotice, loginBannerKind } from '../domain/auth';
import { LoginView } from '../components/LoginView';
import { useLoginRedirect } from './useLoginRedirect';

/** The /login route's screen. No props: everything comes from the API layer and the location. */
export function LoginScreen() {
  const navigate = useNavigate();
  const { target, hasSessionExpired } = useLoginRedirect();
  const [email, setEmail] = useState(() => getConfig().defaultAdminEmail);
  const [password, setPassword] = useState('');
  const formAreaRef = useRef<HTMLDivElement>(null);
  const login = useLogin();

  const whoami = useQuery(whoamiQueryOptions());
  const isSignedIn = whoami.data?.ok === true && hasToken();
  const backend = useQuery({
    ...backendCheckQueryOptions(),
    enabled: !whoami.isPending && !isSignedIn,
  });

  if (isSignedIn) return <Navigate to={target} replace />;

  const result = login.isPending ? undefined : login.data;
  const failure = result && !result.ok ? result : null;
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

  function focusPassword() {
    const field = formAreaRef.current?.querySelector<HTMLInputElement>('input[name="password"]');
    field?.focus();
    field?.select();
  }

  function handleSubmit() {
    if (login.isPending) return;
    login.mutate(
      { email, password },
      {
        onSuccess: (answer) => {
          if (answer.ok) void navigate(target, { replace: true });
          else focusPassword();
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
      />
    </div>
  );
}
