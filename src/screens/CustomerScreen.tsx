/**
 * The customer page's container (docs/api.md "Customers"): the record of the email in the
 * address, its timeline (kind chips kept in the URL's `kind`, older pages on demand), the access
 * actions of the Users row menu in place (support and up; the record and timeline reload after
 * one), 'Retry now' on a failed forum job (support and up), and the Subscriptions drawer.
 */
import { useCallback, useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router-dom';
import {
  customerErrorMessage,
  customerQueryOptions,
  customerTimelineQueryOptions,
  timelineErrorMessage,
  useRetryForumJob,
} from '../api/customers';
import { useAccessAction } from '../api/users';
import type { ActionResultMessage } from '../components/ActionResultAlert';
import { CustomerView, type TimelineEntries } from '../components/CustomerView';
import { actionErrorAlert, describeActionResult } from '../domain/actions';
import {
  parseTimelineKinds,
  TIMELINE_KIND_PARAM,
  timelineKindsParam,
  type CustomerRecord,
  type TimelineKind,
} from '../domain/customer';
import type { AccessAction, AsyncState } from '../domain/types';
import { useNow } from './useNow';
import { useOperator } from './useOperator';
import { useSubscriptionDrawer } from './useSubscriptionDrawer';

/** The /customers/:email route's screen. */
export function CustomerScreen() {
  const email = useParams().email ?? '';
  const [searchParams, setSearchParams] = useSearchParams();
  const kinds = parseTimelineKinds(searchParams.get(TIMELINE_KIND_PARAM));
  const now = useNow();
  const { blockReason } = useOperator();
  const { drawer, open, close } = useSubscriptionDrawer();

  const recordQuery = useQuery(customerQueryOptions(email));
  let record: AsyncState<CustomerRecord>;
  if (recordQuery.isError)
    record = { status: 'error', message: customerErrorMessage(recordQuery.error) };
  else if (!recordQuery.data) record = { status: 'loading' };
  else record = { status: 'ready', data: recordQuery.data };

  const timelineQuery = useInfiniteQuery({
    ...customerTimelineQueryOptions(email, kinds),
    enabled: recordQuery.isSuccess,
  });
  const items = timelineQuery.data?.pages.flatMap((page) => page.items) ?? [];
  let entries: AsyncState<TimelineEntries>;
  if (timelineQuery.isError && !timelineQuery.isFetchNextPageError)
    entries = { status: 'error', message: timelineErrorMessage(timelineQuery.error) };
  else if (!timelineQuery.data || timelineQuery.isPlaceholderData) entries = { status: 'loading' };
  else if (items.length === 0) entries = { status: 'empty' };
  else entries = { status: 'ready', data: { items, hasMore: timelineQuery.hasNextPage } };

  const handleKindsChange = useCallback(
    (next: TimelineKind[]) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          const value = timelineKindsParam(next);
          if (value) params.set(TIMELINE_KIND_PARAM, value);
          else params.delete(TIMELINE_KIND_PARAM);
          return params;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  const { mutateAsync: runAction, isPending: isActionPending } = useAccessAction();
  const [actionResult, setActionResult] = useState<ActionResultMessage | null>(null);
  const handleAccessAction = useCallback(
    (target: string, action: AccessAction) => {
      setActionResult(null);
      runAction({ email: target, action })
        .then(describeActionResult, actionErrorAlert)
        .then(setActionResult);
    },
    [runAction],
  );

  const retry = useRetryForumJob(email);
  const pendingJobIds = new Set<number>(
    retry.isPending && retry.variables !== undefined ? [retry.variables] : [],
  );

  return (
    <CustomerView
      email={email}
      record={record}
      onRetry={() => void recordQuery.refetch()}
      timeline={{
        entries,
        kinds,
        onKindsChange: handleKindsChange,
        isLoadingMore: timelineQuery.isFetchingNextPage,
        loadMoreError: timelineQuery.isFetchNextPageError
          ? timelineErrorMessage(timelineQuery.error)
          : null,
        onLoadMore: () => void timelineQuery.fetchNextPage(),
        onRetry: () => void timelineQuery.refetch(),
      }}
      now={now}
      actionsBlockedReason={blockReason('support')}
      isActionPending={isActionPending}
      actionResult={actionResult}
      onAccessAction={handleAccessAction}
      onDismissActionResult={() => setActionResult(null)}
      retryBlockedReason={blockReason('support')}
      pendingJobIds={pendingJobIds}
      onRetryJob={(jobId) =>
        retry.mutate(jobId, {
          onSuccess: () =>
            setActionResult({ tone: 'success', message: `Forum job ${jobId} queued to run now` }),
          onError: (error) => setActionResult(actionErrorAlert(error)),
        })
      }
      drawer={drawer}
      onOpenSubscription={open}
      onCloseSubscription={close}
    />
  );
}

export default CustomerScreen;
