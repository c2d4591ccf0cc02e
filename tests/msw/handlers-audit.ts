/**
 * MSW handlers for GET /audit (docs/api.md "Audit"): operator and target (exact,
 * case-insensitive), action (exact, or a group: 'access' = every 'access.*'), from/to, page and
 * pageSize like the reference server; a capped total (10,000 with totalCapped); loading, error and
 * a bad filter's 400.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { AUDIT_ROWS, type AuditRowWire } from './fixtures-audit';
import { api, jsonError } from './handlers';

/** The server's count cap (server/routes/audit.ts AUDIT_COUNT_CAP). */
const COUNT_CAP = 10_000;

/** 'YYYY-MM-DD HH:MM:SS' or 'YYYY-MM-DD' (UTC) → ms; a date-only `to` takes its whole day. */
function bound(value: string | null, isEnd: boolean): number | null {
  if (!value) return null;
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(`${value.replace(' ', 'T')}${isDay ? 'T00:00:00' : ''}Z`);
  return isDay && isEnd ? ms + 86_400_000 : ms;
}

function list(rows: readonly AuditRowWire[], { cappedTotal = false } = {}): HttpHandler {
  return http.get(api('/audit'), ({ request }) => {
    const url = new URL(request.url);
    const p = (name: string) => url.searchParams.get(name);
    const same = (a: string | null, b: string | null) =>
      !b || (a ?? '').toLowerCase() === b.toLowerCase();
    const action = p('action');
    const from = bound(p('from'), false);
    const to = bound(p('to'), true);
    const filtered = rows.filter(
      (r) =>
        same(r.operator_email, p('operator')) &&
        same(r.target, p('target')) &&
        (!action || r.action === action || r.action.startsWith(`${action}.`)) &&
        (from === null || Date.parse(r.at) >= from) &&
        (to === null || Date.parse(r.at) < to),
    );
    const pageSize = Math.max(1, Number(p('pageSize')) || 50);
    const page = Math.max(1, Number(p('page')) || 1);
    const total = cappedTotal ? COUNT_CAP : filtered.length;
    return HttpResponse.json({
      rows: filtered.slice((page - 1) * pageSize, page * pageSize),
      total,
      page,
      pageSize,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      totalCapped: cappedTotal,
    });
  });
}

/** GET /audit. */
export const auditHandlers = {
  /** Filters and pages `rows` (default: the twelve fixture rows). */
  list: (rows: readonly AuditRowWire[] = AUDIT_ROWS) => list(rows),
  /** Like list, but the total reads 10,000 with totalCapped, as the server counts past its cap. */
  capped: (rows: readonly AuditRowWire[]) => list(rows, { cappedTotal: true }),
  empty: () => list([]),
  loading: () =>
    http.get(api('/audit'), async () => {
      await delay('infinite');
      return new HttpResponse(null, { status: 204 });
    }),
  error: (status = 500, message = 'Audit query failed') =>
    http.get(api('/audit'), () => jsonError(status, message)),
};
