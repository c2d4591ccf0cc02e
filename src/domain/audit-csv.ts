/**
 * The Audit screen's CSV export of the filtered rows, written with the console's CSV
 * rules (./csv: Papa Parse, CRLF lines, formula-like text neutralised). Its own module so Papa
 * Parse loads with the Audit screen only. Pure.
 */
import { csvText, neutraliseCsvCell } from './csv';
import type { AuditEntry } from './audit';

/** The CSV columns, in order: the wire names of GET /audit's row fields. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'operator_email',
  'action',
  'target',
  'outcome',
  'ip',
  'user_agent',
  'detail',
] as const;

/** One end of the range in a file name: '2026-11-01T08:30' → '2026-11-01T0830' (no colons). */
function fileNamePart(value: string, whenBlank: string): string {
  const text = value.trim().replace(/:/g, '');
  return /^[\dT-]+$/.test(text) ? text : whenBlank;
}

/**
 * The export's file name from the filter's UTC range (datetime-local values):
 * 'audit-<from>-<to>.csv', e.g. 'audit-2026-11-01T0000-2026-11-26T1200.csv'; an open end reads
 * 'start' or 'now' ('audit-start-now.csv').
 */
export function auditCsvFileName(from: string, to: string): string {
  return `audit-${fileNamePart(from, 'start')}-${fileNamePart(to, 'now')}.csv`;
}

/**
 * Audit rows as CSV text: a header line ({@link AUDIT_CSV_COLUMNS}) and one line per row; the
 * detail as compact JSON. Every cell is neutralised ({@link neutraliseCsvCell}), since the
 * target, user agent and detail are text anyone can send.
 */
export function auditCsv(rows: readonly AuditEntry[]): string {
  const text = (value: string | null) => neutraliseCsvCell(value ?? '');
  return csvText(
    AUDIT_CSV_COLUMNS,
    rows.map((r) => [
      text(r.id),
      text(r.at),
      text(r.operatorEmail),
      text(r.action),
      text(r.target),
      text(r.outcome),
      text(r.ip),
      text(r.userAgent),
      text(r.detail == null ? null : JSON.stringify(r.detail)),
    ]),
  );
}
