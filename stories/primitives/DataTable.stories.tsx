import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { DataTable, TruncatedText, type DataTableColumn } from '../../src/components/DataTable';
import { formatAmountWithCode } from '../../src/domain/format';

/** A generic row for the primitive's stories: an invoice line. */
interface Invoice {
  id: number;
  customer: string;
  amountCents: number;
  currency: string;
}
type InvoiceSort = 'id' | 'customer' | 'amount';
interface InvoiceContext {
  onOpen: (invoice: Invoice) => void;
}

const COLUMNS: readonly DataTableColumn<Invoice, InvoiceSort, InvoiceContext>[] = [
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
    width: '16rem',
    cell: (i) => <TruncatedText text={i.customer} />,
  },
  {
    id: 'amount',
    header: 'Amount',
    sortKey: 'amount',
    align: 'end',
    width: '9rem',
    cell: (i) => formatAmountWithCode(i.amountCents, i.currency),
  },
  { id: 'note', header: 'Note', width: '12rem', cell: (i) => (i.id % 2 ? 'renewal' : 'new sale') },
  {
    id: 'actions',
    header: 'Actions',
    width: '6rem',
    sticky: 'end',
    cell: (i, c) => (
      <button type="button" onClick={() => c.onOpen(i)} aria-label={`Open invoice ${i.id}`}>
        Open
      </button>
    ),
  },
];

function invoices(n: number): Invoice[] {
  return Array.from({ length: n }, (_, k) => ({
    id: 1000 + k,
    customer:
      k === 2
        ? 'a-very-long-customer-name-that-will-not-fit@enterprise.example.com'
        : `customer${k}@example.com`,
    amountCents: 1999 + k * 100,
    currency: 'USD',
  }));
}

const onOpen = fn();
const meta = {
  title: 'Primitives/DataTable',
  component: DataTable<Invoice, InvoiceSort, InvoiceContext>,
  args: {
    label: 'Invoices',
    columns: COLUMNS,
    rows: { status: 'ready', data: invoices(6) },
    getRowId: (i: Invoice) => String(i.id),
    context: { onOpen },
    sort: { key: 'id', direction: 'desc' },
    onSortChange: fn(),
    loadingText: 'Loading invoices',
    emptyText: 'No invoices found.',
    onRetry: fn(),
    onRefresh: fn(),
  },
} satisfies Meta<typeof DataTable<Invoice, InvoiceSort, InvoiceContext>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Ready rows, sorted by ID descending; the whole header cell is the sort target. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'Invoices' });
    await expect(within(table).getByRole('columnheader', { name: /ID/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(within(table).getByRole('columnheader', { name: 'Note' })).not.toHaveAttribute(
      'aria-sort',
    );
    // A click at the far corner of the header cell, away from its text, still sorts (§2).
    const cell = within(table).getByRole('columnheader', { name: /Customer/ });
    const rect = cell.getBoundingClientRect();
    const target = document.elementFromPoint(rect.right - 2, rect.bottom - 2) as HTMLElement;
    await expect(cell.contains(target)).toBe(true);
    await userEvent.click(target);
    await expect(args.onSortChange).toHaveBeenLastCalledWith('customer');
    // Keyboard: the header's button takes Enter.
    within(table)
      .getByRole('button', { name: /Amount/ })
      .focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSortChange).toHaveBeenLastCalledWith('amount');
    // Unsortable columns have no button.
    await expect(within(table).queryByRole('button', { name: /^Note/ })).toBeNull();
    // Cells reach the owner through `context`.
    await userEvent.click(within(table).getByRole('button', { name: 'Open invoice 1001' }));
    await expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ id: 1001 }));
    // Long text is cut, never lost.
    const long = canvas.getByText(/a-very-long-customer-name/);
    await expect(long).toHaveAttribute('title', expect.stringContaining('enterprise.example.com'));
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Sorted ascending on a figure column: ▲ and aria-sort ascending, right-aligned. */
export const SortedAscending: Story = {
  args: { sort: { key: 'amount', direction: 'asc' } },
  play: async ({ canvas }) => {
    const header = canvas.getByRole('columnheader', { name: /Amount/ });
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(header).toHaveTextContent('Amount▲');
  },
};

/** The first load: the loading row, the table busy, headers kept. */
export const Loading: Story = {
  args: { rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading invoices');
    await expect(canvas.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getAllByRole('columnheader')).toHaveLength(COLUMNS.length);
  },
};

/** A failed load: the message (formatted by the owner) and Retry. */
export const Error: Story = {
  args: {
    rows: { status: 'error', message: 'Invoices query failed' },
    formatError: (m: string) => `Error: ${m}`,
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Invoices query failed');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Nothing to show: the empty text and Refresh. */
export const Empty: Story = {
  args: { rows: { status: 'empty' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No invoices found.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Empty while a refresh runs: Refresh stays focusable but aria-disabled, and a click does nothing. */
export const EmptyRefreshing: Story = {
  args: { rows: { status: 'empty' }, isRefreshing: true },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    const refresh = canvas.getByRole('button', { name: 'Refresh' });
    await expect(refresh).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(refresh);
    await expect(args.onRefresh).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Empty without a Refresh (a list with its own refresh elsewhere, e.g. ISR events: 'No events'). */
export const EmptyWithoutRefresh: Story = {
  args: { rows: { status: 'empty' }, emptyText: 'No events', onRefresh: undefined },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No events')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Refresh' })).toBeNull();
  },
};

/** The next page is loading: the previous rows stay, dimmed, and the table is busy. */
export const Refreshing: Story = {
  args: { isRefreshing: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getAllByRole('row')).toHaveLength(7);
  },
};

/** A footer: the label spans the columns before the figure it labels. */
export const WithFooter: Story = {
  args: {
    footer: (rows: readonly Invoice[]) => ({
      id: 'Page total',
      amount: formatAmountWithCode(
        rows.reduce((sum, r) => sum + r.amountCents, 0),
        'USD',
      ),
    }),
  },
  play: async ({ canvas }) => {
    const label = canvas.getByRole('rowheader', { name: 'Page total' });
    await expect(label).toHaveAttribute('colspan', '2');
    await expect(label.closest('tr')).toHaveTextContent('Page total134.94 USD');
  },
};

/** 300 rows: only those in view are rendered; the focused row stays while scrolled away. */
export const Virtualised: Story = {
  args: { rows: { status: 'ready', data: invoices(300) }, rowCount: 300 },
  decorators: [
    (Story) => (
      <div style={{ ['--data-table-max-height' as string]: '480px' }}>
        <Story />
      </div>
    ),
  ],
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Invoices' });
    await expect(table).toHaveAttribute('aria-rowcount', '301');
    const rendered = () => table.querySelectorAll('tbody tr[data-index]').length;
    await expect(rendered()).toBeLessThan(60);
    const open = within(table).getByRole('button', { name: 'Open invoice 1001' });
    open.focus();
    const scroller = table.parentElement as HTMLElement;
    scroller.scrollTop = scroller.scrollHeight;
    await waitFor(() => expect(table.querySelector('tr[aria-rowindex="301"]')).not.toBeNull());
    await expect(open).toHaveFocus();
    open.blur();
    scroller.scrollTop = 0;
    await waitFor(() => expect(table.querySelector('tr[aria-rowindex="2"]')).not.toBeNull());
  },
};
