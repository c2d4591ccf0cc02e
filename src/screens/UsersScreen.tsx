/**
 * The Users screen's container (§2 Users, §4 lists and paging, §8 action results): the list runs
 * on the shared URL-synced list hook; access actions run side by side, each with its own §8 alert,
 * and refresh the list. Every change of page, size, sort or filters reloads the list (§4), a
 * return to one seen moments ago included: the list query has staleTime 0, not the console's 30 s,
 * and the shown rows stay on screen while it loads.
 */
import { useCallback, useRef, useState } from 'react';
import { useAccessAction, usersErrorMessage, usersQueryOptions } from '../api/users';
import { UsersView, type UsersActionResult } from '../components/UsersView';
import { actionErrorAlert, describeActionResult } from '../domain/actions';
import { USERS_LIST } from '../domain/query';
import type { AccessAction } from '../domain/types';
import { useNow } from './useNow';
import { useOperator } from './useOperator';
import { listViewProps, useServerList } from './useServerList';

/** The /users route's screen. */
export function UsersScreen() {
  const list = useServerList({
    spec: USERS_LIST,
    queryOptions: usersQueryOptions,
    errorMessage: usersErrorMessage,
  });
  const now = useNow();
  const { blockReason } = useOperator();

  const { mutateAsync: runAction } = useAccessAction();
  const nextId = useRef(0);
  const [results, setResults] = useState<readonly UsersActionResult[]>([]);
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());

  const handleAccessAction = useCallback(
    (email: string, accessAction: AccessAction) => {
      nextId.current += 1;
      const id = `action-${nextId.current}`;
      setResults((current) => current.filter((r) => r.email !== email));
      setPending((current) => new Set(current).add(email));
      // mutateAsync, not mutate: per-call callbacks of mutate fire for the latest call only, which
      // would drop the first of two overlapping actions' alerts.
      runAction({ email, action: accessAction })
        .then(describeActionResult, actionErrorAlert)
        .then((alert) => setResults((current) => [...current, { id, email, ...alert }]))
        .finally(() =>
          setPending((current) => {
            const next = new Set(current);
            next.delete(email);
            return next;
          }),
        );
    },
    [runAction],
  );

  return (
    <UsersView
      {...listViewProps(list)}
      actionResults={results}
      pendingActionEmails={pending}
      now={now}
      onAccessAction={handleAccessAction}
      actionsBlockedReason={blockReason('support')}
      onDismissActionResult={(id) => setResults((current) => current.filter((r) => r.id !== id))}
    />
  );
}

export default UsersScreen;
