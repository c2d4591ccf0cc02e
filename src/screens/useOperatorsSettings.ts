/**
 * The Operators part of the Settings screen (owners only): GET /operators, PATCH
 * /operators/:id (role, disable, enable), PUT /auth/policy and POST /operators (invite), each
 * outcome in words for OperatorsSection.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  apiErrorCode,
  inviteOperator,
  operatorsQueryOptions,
  setRequireTotp,
  updateOperator,
} from '../api/operators';
import { queryKeys } from '../api/queryKeys';
import type { OperatorList, OperatorSummary } from '../domain/account';
import { errorMessageOr } from '../domain/messages';
import { ROLE_LABELS } from '../domain/roles';
import type { AsyncState } from '../domain/types';
import type { InviteState } from '../components/InviteOperatorForm';
import type { OperatorsNotice, OperatorsSectionProps } from '../components/OperatorsSection';
import type { OperatorChange } from '../components/OperatorsTable';

/** "2 sessions were ended." and its singular and zero forms. */
function endedSentence(count: number): string {
  if (count === 0) return 'No session was open.';
  return count === 1 ? '1 session was ended.' : `${count} sessions were ended.`;
}

/** What a change did, in one sentence. */
function changedSentence(operator: OperatorSummary, change: OperatorChange, ended: number) {
  if ('role' in change) return `${operator.name} is now ${ROLE_LABELS[change.role]}.`;
  return change.disabled
    ? `${operator.name} is disabled. ${endedSentence(ended)}`
    : `${operator.name} is enabled.`;
}

/** The OperatorsSection props, or null (and no request) when `isEnabled` is false. */
export function useOperatorsSettings(
  isEnabled: boolean,
  selfId: number | null,
): OperatorsSectionProps | null {
  const queryClient = useQueryClient();
  const operators = useQuery({ ...operatorsQueryOptions(), enabled: isEnabled });
  const [notice, setNotice] = useState<OperatorsNotice | null>(null);
  const refreshList = () => queryClient.invalidateQueries({ queryKey: queryKeys.operators.all() });

  const change = useMutation({
    mutationFn: (input: { operator: OperatorSummary; change: OperatorChange }) =>
      updateOperator(input.operator.id, input.change),
    onMutate: () => setNotice(null),
    onSuccess: (ended, input) =>
      setNotice({ tone: 'success', message: changedSentence(input.operator, input.change, ended) }),
    onError: (error) =>
      setNotice({ tone: 'danger', message: errorMessageOr(error, 'The change was not saved.') }),
    onSettled: () => refreshList(),
  });
  const policy = useMutation({
    mutationFn: setRequireTotp,
    onMutate: () => setNotice(null),
    onSuccess: (requireTotp) => {
      queryClient.setQueryData<OperatorList>(queryKeys.operators.list(), (list) =>
        list ? { ...list, requireTotp } : list,
      );
      setNotice({
        tone: 'success',
        message: requireTotp
          ? 'Two-factor sign-in is now required for every operator.'
          : 'Two-factor sign-in is no longer required.',
      });
      // The policy can oblige this very operator to enrol: the enrolment gate reads who-am-I.
      void queryClient.invalidateQueries({ queryKey: queryKeys.auth.whoami() });
    },
    onError: (error) =>
      setNotice({ tone: 'danger', message: errorMessageOr(error, 'The policy was not saved.') }),
  });
  const invite = useMutation({
    mutationFn: inviteOperator,
    onSuccess: () => void refreshList(),
  });

  if (!isEnabled) return null;

  let list: AsyncState<OperatorList>;
  switch (operators.status) {
    case 'pending':
      list = { status: 'loading' };
      break;
    case 'error':
      list = {
        status: 'error',
        message: errorMessageOr(operators.error, 'Failed to load operators'),
      };
      break;
    case 'success':
      list = { status: 'ready', data: operators.data };
      break;
  }

  let inviteState: InviteState = { status: 'idle' };
  if (invite.isPending) inviteState = { status: 'sending' };
  else if (invite.isError) {
    inviteState = {
      status: 'error',
      field: apiErrorCode(invite.error) === 'OPERATOR_EXISTS' ? 'email' : 'form',
      message: errorMessageOr(invite.error, 'The invitation was not made.'),
    };
  } else if (invite.isSuccess) inviteState = { status: 'done', invite: invite.data };

  return {
    list,
    selfId,
    busyId: change.isPending ? change.variables.operator.id : null,
    notice,
    isPolicySaving: policy.isPending,
    invite: inviteState,
    onChange: (operator, next) => change.mutate({ operator, change: next }),
    onPolicyChange: (requireTotp) => policy.mutate(requireTotp),
    onInvite: (values) => invite.mutate(values),
    onRetry: () => void operators.refetch(),
  };
}
