import type { Meta, StoryObj } from '@storybook/react-vite';
import { getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { expect } from 'storybook/test';
import { DataTableRow } from '../../src/components/DataTable/DataTableRow';
import { INVOICES, INVOICE_COLUMNS, PartTable, type Invoice } from '../support/dataTableParts';

const COLUMN_DEFS: ColumnDef<Invoice>[] = INVOICE_COLUMNS.map((c) => ({
  id: c.id,
  header: c.header,
  cell: (info) => c.cell(info.row.original, undefined),
}));

/** Props of {@link Rows}. */
interface RowsProps {
  /** The invoices to render, one DataTableRow each. */
  invoices: readonly Invoice[];
  /** 0-based position of the first in the whole list. */
  firstRowIndex: number;
}

/** The invoices through TanStack Table and DataTableRow, as DataTable renders its body. */
function Rows({ invoices, firstRowIndex }: RowsProps) {
  // No React Compiler in this build: the table instance is read during render, never memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<Invoice>({
    data: invoices as Invoice[],
    columns: COLUMN_DEFS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (i) => String(i.id),
  });
  return (
    <PartTable label="Invoices">
      {table.getRowModel().rows.map((row, index) => (
        <DataTableRow
          key={row.id}
          row={row}
          index={index}
          ariaRowIndex={firstRowIndex + index + 2}
          columns={INVOICE_COLUMNS}
          meta={{ context: undefined }}
        />
      ))}
    </PartTable>
  );
}

/** One body row of DataTable: a cell per column with its alignment, stickiness and wrapping. */
const meta = {
  title: 'Primitives/DataTable/DataTableRow',
  component: Rows,
  args: { invoices: INVOICES, firstRowIndex: 0 },
} satisfies Meta<typeof Rows>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three rows: row indices after the header, the columns' alignment and sticky edges. */
export const Default: Story = {
  play: async ({ canvas }) => {
    const rows = canvas.getAllByRole('row');
    await expect(rows.map((r) => r.getAttribute('aria-rowindex'))).toEqual(['2', '3', '4']);
    await expect(rows.map((r) => r.getAttribute('data-index'))).toEqual(['0', '1', '2']);
    const cells = [...rows[0]!.children];
    await expect(cells.map((c) => c.textContent)).toEqual([
      '1',
      'ada@example.com',
      '$29.00',
      '',
      '#1',
    ]);
    await expect(cells[0]).toHaveAttribute('data-sticky', 'start');
    await expect(cells[0]).toHaveAttribute('data-align', 'end');
    await expect(cells[1]).toHaveAttribute('data-wrap', 'true');
    await expect(cells[4]).toHaveAttribute('data-sticky', 'end');
    await expect(cells[3]).not.toHaveAttribute('data-sticky');
  },
};

/** On a later page: aria-rowindex counts the rows of the pages before. */
export const LaterPage: Story = {
  args: { firstRowIndex: 50 },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByRole('row')[0]).toHaveAttribute('aria-rowindex', '52');
  },
};

/** A long customer wraps in its cell instead of widening the table. */
export const LongText: Story = {
  args: {
    invoices: [
      {
        id: 7,
        customer: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
        amountCents: 123_456_78,
      },
    ],
  },
  play: async ({ canvas }) => {
    const row = canvas.getByRole('row');
    await expect(row).toHaveTextContent('maximiliane.fitzgerald-montgomery');
    await expect(row).toHaveTextContent('$123456.78');
  },
};
