/**
 * The Settings screen (§2 Settings): My account for every operator (password, sessions,
 * two-factor sign-in), Operators for owners, and the placeholder for environment and integration
 * settings. At /settings?enrol=1, where the app sends an operator an owner requires to enrol
 * (who-am-I `must_enrol_totp`), only the two-factor set-up shows: every other call would answer
 * 403 TOTP_ENROLMENT_REQUIRED. Continue then goes to the dashboard.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { whoamiQueryOptions } from '../api/auth';
import { apiErrorCode, changePassword, endSession, sessionsQueryOptions } from '../api/operators';
import { queryKeys } from '../api/queryKeys';
import { errorMessageOr, errorStatus } from '../domain/messages';
import type { AsyncState } from '../domain/types';
import type { AccountSession } from '../domain/account';
import type { PasswordChangeState } from '../components/AccountPasswordForm';
import { SettingsView } from '../components/SettingsView';
import { HOME_PATH } from './useLoginRedirect';
import { useOperator } from './useOperator';
import { useOperatorsSettings } from './useOperatorsSettings';
import { useTotpFlow } from './useTotpFlow';

/** The /settings route's screen. */
export function SettingsScreen() {
  const [searchParams] = useSearchParams();
  const isEnrolment = searchParams.get('enrol') === '1';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const access = useOperator();
  const operator = access.operator;
  const totp = useTotpFlow(operator?.totpEnabled ?? false, operator?.email ?? null);
  // Only a known owner asks for the operators: before who-am-I answers, the request would show
  // other roles a refusal, and the table marks the owner's own row.
  const operators = useOperatorsSettings(
    !isEnrolment && operator !== null && access.can('owner'),
    operator?.id ?? null,
  );
  const sessions = useQuery({
    ...sessionsQueryOptions(),
    enabled: !isEnrolment && operator !== null,
  });
  const refreshSessions = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions() });

  const password = useMutation({
    mutationFn: (values: { current: string; next: string }) =>
      changePassword(values.current, values.next),
    onSuccess: () => void refreshSessions(),
  });
  const end = useMutation({
    mutationFn: endSession,
    onSettled: () => void refreshSessions(),
  });

  if (isEnrolment) {
    return (
      <SettingsView
        mode="enrol"
        totp={totp}
        onContinue={() => {
          // The gate reads who-am-I: it must no longer say "must enrol" before the dashboard opens.
          void queryClient
            .fetchQuery({ ...whoamiQueryOptions(), staleTime: 0 })
            .catch(() => null)
            .then(() => navigate(HOME_PATH, { replace: true }));
        }}
      />
    );
  }

  // A backend without operator accounts names no operator and has none of the account routes.
  if (!operator) return <SettingsView />;

  let passwordState: PasswordChangeState = { status: 'idle' };
  if (password.isPending) passwordState = { status: 'saving' };
  else if (password.isSuccess) passwordState = { status: 'done', sessionsEnded: password.data };
  else if (password.isError) {
    const code = apiErrorCode(password.error);
    passwordState = {
      status: 'error',
      field: code === 'INCORRECT_PASSWORD' ? 'current' : code === 'WEAK_PASSWORD' ? 'next' : 'form',
      message: errorMessageOr(password.error, 'The password was not changed.'),
    };
  }

  let sessionRows: AsyncState<readonly AccountSession[]>;
  switch (sessions.status) {
    case 'pending':
      sessionRows = { status: 'loading' };
      break;
    case 'error':
      sessionRows = {
        status: 'error',
        message: errorMessageOr(sessions.error, 'Failed to load sessions'),
      };
      break;
    case 'success':
      sessionRows =
        sessions.data.length > 0 ? { status: 'ready', data: sessions.data } : { status: 'empty' };
      break;
  }

  return (
    <SettingsView
      mode="full"
      password={{ state: passwordState, onSubmit: (values) => password.mutate(values) }}
      sessions={{
        sessions: sessionRows,
        endingId: end.isPending ? end.variables : null,
        endError: end.isError
          ? errorStatus(end.error) === 404
            ? 'That session had already ended.'
            : errorMessageOr(end.error, 'The session was not ended.')
          : null,
        onEnd: (id) => end.mutate(id),
        onRetry: () => void sessions.refetch(),
      }}
      totp={totp}
      operators={operators}
    />
  );
}
