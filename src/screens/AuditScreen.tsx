/**
 * The Audit screen's container: the shared URL-synced list over GET
 * /audit, and Export CSV, which gathers every row the applied filters match (pages of 200, up to
 * 10,000 rows) and downloads them as 'audit-<from>-<to>.csv'. A bad filter's 400 shows the
 * server's message; a 401 goes to sign-in through the API client.
 */
import { useEffect, useRef, useState } from 'react';
import { auditErrorMessage, auditQueryOptions, fetchAuditExport } from '../api/audit';
import { isAbortError } from '../api/client';
import { AuditView, type AuditExportState } from '../components/AuditView';
import { AUDIT_LIST } from '../domain/audit';
import { auditCsv, auditCsvFileName } from '../domain/audit-csv';
import { downloadText } from './downloadText';
import { listViewProps, useServerList } from './useServerList';

/** The /audit route's screen. */
export function AuditScreen() {
  const list = useServerList({
    spec: AUDIT_LIST,
    queryOptions: auditQueryOptions,
    errorMessage: auditErrorMessage,
  });
  const [exportState, setExportState] = useState<AuditExportState>({ status: 'idle' });
  const exportRun = useRef<AbortController | null>(null);
  // Leaving the screen stops an export that is still fetching pages.
  useEffect(() => () => exportRun.current?.abort(), []);

  const handleExportCsv = () => {
    if (exportRun.current) return;
    const run = new AbortController();
    exportRun.current = run;
    const { query } = list;
    setExportState({ status: 'running', rows: 0 });
    fetchAuditExport(query, {
      signal: run.signal,
      onProgress: (rows) => setExportState({ status: 'running', rows }),
    })
      .then(({ rows, isCapped }) => {
        const fileName = auditCsvFileName(query.filters.from, query.filters.to);
        downloadText(fileName, auditCsv(rows));
        setExportState({ status: 'done', rows: rows.length, fileName, isCapped });
      })
      .catch((error: unknown) => {
        if (!isAbortError(error))
          setExportState({ status: 'error', message: auditErrorMessage(error) });
      })
      .finally(() => {
        if (exportRun.current === run) exportRun.current = null;
      });
  };

  return (
    <AuditView {...listViewProps(list)} exportState={exportState} onExportCsv={handleExportCsv} />
  );
}

export default AuditScreen;
