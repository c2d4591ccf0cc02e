/**
 * MSW handlers for GET /logs (§7): level (exact), q (message or context text, case-insensitive),
 * page and pageSize like the reference server; plus the loading, error, empty and 401 states.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { LOG_ROWS, type LogRowWire } from './fixtures-logs';
import { api, jsonError } from './handlers';

function logsList(rows: LogRowWire[]): HttpHandler {
  return http.get(api('/logs'), ({ request }) => {
    const url = new URL(request.url);
    const level = url.searchParams.get('level');
    const q = url.searchParams.get('q')?.toLowerCase();
    const filtered = rows.filter(
      (r) =>
        (!level || r.level === level) &&
        (!q || `${r.msg} ${JSON.stringify(r.context)}`.toLowerCase().includes(q)),
    );
    const pageSize = Math.max(1, Number(url.searchParams.get('pageSize')) || 50);
    const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
    const total = filtered.length;
    return HttpResponse.json({
      rows: filtered.slice((page - 1) * pageSize, page * pageSize),
      total,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
    });
  });
}

/** GET /logs. */
export const logsHandlers = {
  /** Filters and pages `rows` (default: the twelve fixture entries). */
  list: (rows: LogRowWire[] = LOG_ROWS) => logsList(rows),
  empty: () => logsList([]),
  loading: () =>
    http.get(api('/logs'), async () => {
      await delay('infinite');
      return new HttpResponse(null, { status: 204 });
    }),
  error: (status = 500, message = 'Log query failed') =>
    http.get(api('/logs'), () => jsonError(status, message)),
  unauthorized: () => http.get(api('/logs'), () => jsonError(401, 'Please sign in.')),
};
