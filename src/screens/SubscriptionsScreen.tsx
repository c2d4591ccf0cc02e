/**
 * The Subscriptions screen's container (§2 Subscriptions, §4, §8): the list runs on the shared
 * URL-synced list hook; the detail drawer's loads come from useSubscriptionDrawer.
 *
 * §4 "the list reloads on any change of page, size, sort or filters": the list query has
 * staleTime 0 rather than the console's 30 s, so returning to a sort or page seen moments ago
 * shows the cached rows and asks again; a new page keeps the previous rows on screen while it
 * loads. The drawer's detail and orders keep the 30 s (reopening a row is not a list change).
 */
import { subscriptionsErrorMessage, subscriptionsQueryOptions } from '../api/subscriptions';
import { SubscriptionsView } from '../components/SubscriptionsView';
import { SUBSCRIPTIONS_LIST } from '../domain/query';
import { listViewProps, useServerList } from './useServerList';
import { useSubscriptionDrawer } from './useSubscriptionDrawer';

/** The /subscriptions route's screen. */
export function SubscriptionsScreen() {
  const list = useServerList({
    spec: SUBSCRIPTIONS_LIST,
    queryOptions: subscriptionsQueryOptions,
    errorMessage: subscriptionsErrorMessage,
  });
  const { drawer, open, close } = useSubscriptionDrawer();

  return (
    <SubscriptionsView
      {...listViewProps(list)}
      drawer={drawer}
      onOpenDetails={open}
      onCloseDetails={close}
    />
  );
}

export default SubscriptionsScreen;
