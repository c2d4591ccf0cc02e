/**
 * A minimal table around one of DataTable's internal parts (header, row, state, spacer and
 * footer rows), styled as DataTable styles it, for the parts' own stories.
 */
import type { ReactNode } from 'react';
import type { DataTableColumn } from '../../src/components/DataTable';
import styles from '../../src/components/DataTable/DataTable.module.css';

/** An invoice line, the parts' sample row. */
export interface Invoice {
  id: number;
  customer: string;
  amountCents: number;
}

/** The invoices' sort keys. */
export type InvoiceSort = 'id' | 'customer' | 'amount';

/** ID (sticky start, sortable), Customer (sortable, wraps), Amount (end-aligned), Actions (sticky end). */
export const INVOICE_COLUMNS: readonly DataTableColumn<Invoice, InvoiceSort, undefined>[] = [
  {
    id: 'id',
    header: 'ID',
    sortKey: 'id',
    align: 'end',
    width: '5rem',
    sticky: 'start',
    cell: (i) => i.id,
  },
  {
    id: 'customer',
    header: 'Customer',
    sortKey: 'customer',
    width: '18rem',
    wrap: true,
    cell: (i) => i.customer,
  },
  {
    id: 'amount',
    header: 'Amount',
    sortKey: 'amount',
    align: 'end',
    width: '8rem',
    cell: (i) => `$${(i.amountCents / 100).toFixed(2)}`,
  },
  { id: 'note', header: 'Note', width: '10rem', cell: () => '' },
  { id: 'actions', header: 'Actions', width: '6rem', sticky: 'end', cell: (i) => `#${i.id}` },
];

/** Three invoices. */
export const INVOICES: readonly Invoice[] = [
  { id: 1, customer: 'ada@example.com', amountCents: 2900 },
  { id: 2, customer: 'grace@example.com', amountCents: 999 },
  { id: 3, customer: 'linus@example.com', amountCents: 14_900 },
];

/** Props of {@link PartTable}. */
interface PartTableProps {
  /** The table's accessible name. */
  label: string;
  /** The part(s): a thead, tbody rows or a tfoot. */
  children: ReactNode;
  /** Whether `children` already hold their thead/tbody/tfoot (else they go in a tbody). */
  isSection?: boolean;
}

/** A captioned table with DataTable's styles and the invoice columns' widths. */
export function PartTable({ label, children, isSection = false }: PartTableProps) {
  return (
    <div className={styles.scroller}>
      <table className={styles.table} data-sized="">
        <caption className="visually-hidden">{label}</caption>
        <colgroup>
          {INVOICE_COLUMNS.map((c) => (
            <col key={c.id} style={{ width: c.width }} />
          ))}
        </colgroup>
        {isSection ? children : <tbody>{children}</tbody>}
      </table>
    </div>
  );
}
