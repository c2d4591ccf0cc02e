/**
 * The Webhooks screen's container: the shared URL-synced list over GET /webhook-deliveries, the
 * delivery drawer (GET /webhook-deliveries/:id) and Replay (POST …/replay, admin and up; the role
 * comes from the who-am-I answer). A replay refreshes the list and the open delivery.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { whoamiQueryOptions } from '../api/auth';
import { queryKeys } from '../api/queryKeys';
import {
  replayWebhookDelivery,
  webhookDeliveriesQueryOptions,
  webhookDeliveryQueryOptions,
  webhooksErrorMessage,
} from '../api/webhooks';
import { WebhooksView } from '../components/WebhooksView';
import type { ReplayState } from '../components/WebhookDeliveryDrawer';
import { errorMessageOr } from '../domain/messages';
import type { AsyncState } from '../domain/types';
import { hasRole } from '../domain/roles';
import {
  WEBHOOKS_LIST,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
} from '../domain/webhooks';
import { listViewProps, useServerList } from './useServerList';

/** The /webhooks route's screen. */
export function WebhooksScreen() {
  const list = useServerList({
    spec: WEBHOOKS_LIST,
    queryOptions: webhookDeliveriesQueryOptions,
    errorMessage: webhooksErrorMessage,
  });
  const queryClient = useQueryClient();
  const whoami = useQuery(whoamiQueryOptions());
  const [openRow, setOpenRow] = useState<WebhookDelivery | null>(null);
  const detailQuery = useQuery({
    ...webhookDeliveryQueryOptions(openRow?.id ?? ''),
    enabled: openRow !== null,
  });
  const replay = useMutation({
    mutationFn: replayWebhookDelivery,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.all() }),
  });

  let detail: AsyncState<WebhookDeliveryDetail>;
  if (detailQuery.isError)
    detail = {
      status: 'error',
      message: errorMessageOr(detailQuery.error, 'Failed to load the webhook delivery'),
    };
  else if (detailQuery.isSuccess) detail = { status: 'ready', data: detailQuery.data };
  else detail = { status: 'loading' };

  let replayState: ReplayState = { status: 'idle' };
  if (replay.isPending) replayState = { status: 'running' };
  else if (replay.isError)
    replayState = { status: 'error', message: errorMessageOr(replay.error, 'The replay failed') };
  else if (replay.isSuccess) replayState = { status: 'done', result: replay.data };

  return (
    <WebhooksView
      {...listViewProps(list)}
      drawer={{ openRow, detail, replay: replayState }}
      canReplay={hasRole(whoami.data?.operator?.role, 'admin')}
      onOpenDelivery={(row) => {
        replay.reset();
        setOpenRow(row);
      }}
      onCloseDelivery={() => setOpenRow(null)}
      onReplay={() => {
        if (openRow) replay.mutate(openRow.id);
      }}
    />
  );
}

export default WebhooksScreen;
