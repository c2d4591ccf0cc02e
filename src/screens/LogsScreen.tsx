/**
 * The Logs screen's container (§2 Logs, §4, §8): the shared URL-synced list over GET /logs, with
 * Auto-refresh (on by default, every 15 s, paused while the tab is hidden) and one retry 300 ms
 * after an empty first answer. A 401 goes to sign-in through the API client.
 */
import { useEffect, useRef, useState } from 'react';
import { logsErrorMessage, logsQueryOptions } from '../api/logs';
import { LogsView } from '../components/LogsView';
import { LOGS_AUTO_REFRESH_MS, LOGS_EMPTY_RETRY_MS, LOGS_LIST } from '../domain/logs';
import { listViewProps, useServerList } from './useServerList';

/** The /logs route's screen. */
export function LogsScreen() {
  const [isAutoRefresh, setIsAutoRefresh] = useState(true);
  const list = useServerList({
    spec: LOGS_LIST,
    queryOptions: logsQueryOptions,
    errorMessage: logsErrorMessage,
    refetchIntervalMs: isAutoRefresh ? LOGS_AUTO_REFRESH_MS : false,
  });

  // §4: if the first result has zero rows, one retry follows after 300 ms (a server that has just
  // started may not have flushed its first log rows yet).
  const status = list.list.status;
  const { refetch } = list;
  const firstAnswerSeen = useRef(false);
  useEffect(() => {
    if (firstAnswerSeen.current || status === 'loading') return;
    firstAnswerSeen.current = true;
    if (status !== 'empty') return;
    const timer = setTimeout(refetch, LOGS_EMPTY_RETRY_MS);
    return () => clearTimeout(timer);
  }, [status, refetch]);

  return (
    <LogsView
      {...listViewProps(list)}
      isAutoRefresh={isAutoRefresh}
      onAutoRefreshChange={setIsAutoRefresh}
    />
  );
}

export default LogsScreen;
