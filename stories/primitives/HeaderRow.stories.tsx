import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { HeaderRow } from '../../src/components/DataTable/HeaderRow';
import {
  INVOICE_COLUMNS,
  PartTable,
  type Invoice,
  type InvoiceSort,
} from '../support/dataTableParts';

/** DataTable's header row: sortable columns are sort buttons with ▲/▼/↕ and `aria-sort`. */
const meta = {
  title: 'Primitives/DataTable/HeaderRow',
  component: HeaderRow<Invoice, InvoiceSort, undefined>,
  args: {
    columns: INVOICE_COLUMNS,
    sort: { key: 'amount', direction: 'desc' },
    onSortChange: fn(),
    isReady: true,
  },
  render: (args) => (
    <PartTable label="Invoices" isSection>
      <HeaderRow {...args} />
      <tbody />
    </PartTable>
  ),
} satisfies Meta<typeof HeaderRow<Invoice, InvoiceSort, undefined>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Sorted by Amount descending: ▼ and aria-sort on it alone, ↕ on the other sortable columns. */
export const SortedDescending: Story = {
  play: async ({ canvas, args }) => {
    const row = canvas.getByRole('row');
    await expect(row).toHaveAttribute('aria-rowindex', '1');
    const amount = canvas.getByRole('columnheader', { name: /Amount/ });
    await expect(amount).toHaveAttribute('aria-sort', 'descending');
    await expect(amount).toHaveTextContent('Amount▼');
    await expect(canvas.getByRole('columnheader', { name: /ID/ })).toHaveTextContent('ID↕');
    await expect(canvas.getByRole('columnheader', { name: /ID/ })).not.toHaveAttribute('aria-sort');
    await expect(canvas.getByRole('columnheader', { name: 'Note' })).toHaveTextContent('Note');
    await expect(
      within(canvas.getByRole('columnheader', { name: 'Note' })).queryByRole('button'),
    ).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: /Customer/ }));
    await expect(args.onSortChange).toHaveBeenCalledWith('customer');
  },
};

/** Ascending: ▲ and aria-sort ascending. */
export const SortedAscending: Story = {
  args: { sort: { key: 'id', direction: 'asc' } },
  play: async ({ canvas }) => {
    const id = canvas.getByRole('columnheader', { name: /ID/ });
    await expect(id).toHaveAttribute('aria-sort', 'ascending');
    await expect(id).toHaveTextContent('ID▲');
  },
};

/** Keyboard: Tab goes from sort button to sort button; Enter sorts by the focused one. */
export const Keyboard: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: /ID/ })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: /Customer/ })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSortChange).toHaveBeenCalledWith('customer');
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Without onSortChange no column is sortable: plain headers, no buttons. */
export const Unsortable: Story = {
  args: { onSortChange: undefined, sort: null },
  play: async ({ canvas }) => {
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
    await expect(canvas.getAllByRole('columnheader')).toHaveLength(INVOICE_COLUMNS.length);
  },
};

/** No rows shown (loading, error, empty): the header row has no aria-rowindex. */
export const NotReady: Story = {
  args: { isReady: false },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('row')).not.toHaveAttribute('aria-rowindex');
  },
};
