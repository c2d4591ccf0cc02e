/**
 * The ISR events CSV export (spec §5 "produced in the client from the current page", §9 file name
 * and columns; CONTRACT.md: amount in currency units). Its own module so Papa Parse loads only
 * with the Integrated Tracking screen, not with every screen that reads ISR figures.
 */
import { csvText, neutraliseCsvCell } from './csv';
import type { IsrEvent } from './isr';

export { neutraliseCsvCell };

/* ------------------------------------------------------------------------------------------ */
/* §9 CSV export                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** §9: the CSV columns, in order. */
export const ISR_CSV_COLUMNS = [
  'id',
  'created_at',
  'source',
  'order_id',
  'receipt',
  'product_id',
  'amount',
  'currency',
  'affiliate',
  'subid',
  'campaign',
  'customer_email',
  'referrer',
] as const;

/** §9: the export's file name for page `page` (1-based): 'isr-events_page{n}.csv'. */
export function isrCsvFileName(page: number): string {
  const n = Number.isFinite(page) && page >= 1 ? Math.floor(page) : 1;
  return `isr-events_page${n}.csv`;
}

/**
 * The CSV `amount`: amount_cents / 100 with two decimals in currency units ('47.00', a refund
 * '-12.50'); '' when missing. A number the console formats itself, so it is never a formula and
 * is left as a number for spreadsheets (Papa Parse's own escapeFormulae skips numbers likewise).
 */
export function csvAmount(amountCents: number | null): string {
  return amountCents == null || !Number.isFinite(amountCents) ? '' : (amountCents / 100).toFixed(2);
}

/**
 * The current page of events as CSV text (§5 "produced in the client", §9 columns): a header line
 * and one line per event, written by the shared CSV rules (./csv: Papa Parse, quoted where needed,
 * CRLF line ends). Every text cell is neutralised ({@link neutraliseCsvCell}); `amount` is
 * {@link csvAmount}.
 */
export function isrEventsCsv(rows: readonly IsrEvent[]): string {
  const text = (value: string | null) => neutraliseCsvCell(value ?? '');
  const data = rows.map((e) => [
    text(e.id),
    text(e.createdAt),
    text(e.source),
    text(e.orderId),
    text(e.receipt),
    text(e.productId),
    csvAmount(e.amountCents),
    text(e.currency),
    text(e.affiliate),
    text(e.subid),
    text(e.campaign),
    text(e.customerEmail),
    text(e.referrer),
  ]);
  return csvText(ISR_CSV_COLUMNS, data);
}
