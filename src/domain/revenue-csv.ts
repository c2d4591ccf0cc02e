/**
 * The Revenue screen's CSV exports (movements and cohorts), written by Papa Parse with the ISR
 * export's rules (src/domain/isr-csv.ts): CRLF lines, money in currency units with two decimals,
 * text cells a spreadsheet would run as a formula neutralised with a leading apostrophe.
 */
import Papa from 'papaparse';
import { csvAmount, neutraliseCsvCell } from './isr-csv';
import { MOVEMENT_KINDS, netMovement, type Cohort, type MovementBucket } from './revenue';

function unparse(fields: string[], data: string[][]): string {
  const csv = Papa.unparse({ fields, data }, { quotes: false, newline: '\r\n' });
  return data.length === 0 ? csv.replace(/\r\n$/, '') : csv;
}

/** Movements as CSV: date, currency, one column per movement and net, in currency units. */
export function movementsCsv(rows: readonly MovementBucket[], currency: string): string {
  const code = neutraliseCsvCell(currency);
  return unparse(
    ['date', 'currency', ...MOVEMENT_KINDS, 'net'],
    rows.map((m) => [
      neutraliseCsvCell(m.date),
      code,
      ...MOVEMENT_KINDS.map((k) => csvAmount(m[k])),
      csvAmount(netMovement(m)),
    ]),
  );
}

/**
 * Cohorts as CSV: cohort, customers, starting MRR (currency units), then one column per month
 * since the start with the logo or revenue retention percentage ('' where the month has not come).
 */
export function cohortsCsv(
  cohorts: readonly Cohort[],
  retention: 'logo' | 'revenue',
  currency: string,
): string {
  const months = Math.max(0, ...cohorts.map((c) => c[retention].length));
  const fields = [
    'cohort',
    'customers',
    'currency',
    'mrr',
    ...Array.from({ length: months }, (_, k) => `month_${k}`),
  ];
  return unparse(
    fields,
    cohorts.map((c) => [
      neutraliseCsvCell(c.cohort),
      String(c.customers),
      neutraliseCsvCell(currency),
      csvAmount(c.mrrCents),
      ...Array.from({ length: months }, (_, k) => {
        const v = c[retention][k];
        return v == null ? '' : v.toFixed(1);
      }),
    ]),
  );
}

/** File names of the exports, e.g. 'revenue-movements_2026-10-24_2026-11-20.csv'. */
export function revenueCsvFileName(
  what: 'movements' | 'cohorts',
  from: string,
  to: string,
): string {
  const safe = (d: string) => d.replace(/[^0-9-]/g, '');
  return `revenue-${what}_${safe(from)}_${safe(to)}.csv`;
}
