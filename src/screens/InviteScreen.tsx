/**
 * The invitation page (/admin/invite/:token, no session needed; docs/api.md "Operators"): checks
 * the link, then lets the invitee set their password. The password rule is the server's: its
 * refusal (WEAK_PASSWORD) is shown as it says it; the two fields must match before anything is
 * sent.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useHref, useParams } from 'react-router-dom';
import { acceptInvite, checkInvite } from '../api/auth';
import { ApiError } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { InviteAcceptView, type InviteAcceptState } from '../components/InviteAcceptView';
import { isRole, ROLE_LABELS } from '../domain/roles';
import { LOGIN_PATH } from './useLoginRedirect';

/** The /invite/:token route's screen. */
export function InviteScreen() {
  const token = useParams().token ?? '';
  const signInHref = useHref(LOGIN_PATH);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const invite = useQuery({
    queryKey: [...queryKeys.all(), 'invite', token],
    queryFn: ({ signal }) => checkInvite(token, signal),
    retry: false,
    staleTime: Infinity,
  });
  const accept = useMutation({ mutationFn: () => acceptInvite(token, password) });

  let state: InviteAcceptState;
  if (accept.isSuccess) state = { status: 'done', email: accept.data };
  else if (invite.isPending) state = { status: 'checking' };
  else if (invite.isError) {
    state = {
      status: 'error',
      message: invite.error instanceof Error ? invite.error.message : 'Request failed',
    };
  } else if (invite.data === null) state = { status: 'invalid' };
  else if (accept.error instanceof ApiError && accept.error.status === 404)
    state = { status: 'invalid' };
  else {
    const d = invite.data;
    state = {
      status: 'form',
      email: d.email,
      name: d.name,
      roleLabel: isRole(d.role) ? ROLE_LABELS[d.role] : d.role,
      expiresAt: d.expiresAt,
      isSaving: accept.isPending,
      error: mismatch
        ? 'The two passwords do not match.'
        : accept.error
          ? accept.error instanceof Error
            ? accept.error.message
            : 'Request failed'
          : null,
    };
  }

  return (
    <InviteAcceptView
      state={state}
      password={password}
      confirmation={confirmation}
      onPasswordChange={setPassword}
      onConfirmationChange={setConfirmation}
      signInHref={signInHref}
      onSubmit={() => {
        const differs = password !== confirmation;
        setMismatch(differs);
        if (!differs) accept.mutate();
      }}
    />
  );
}

export default InviteScreen;
