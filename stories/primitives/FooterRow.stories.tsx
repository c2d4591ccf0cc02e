import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { FooterRow } from '../../src/components/DataTable/FooterRow';
import {
  INVOICE_COLUMNS,
  PartTable,
  type Invoice,
  type InvoiceSort,
} from '../support/dataTableParts';

/**
 * DataTable's footer row: the first labelled cell is a row header spanning the empty columns up
 * to the next labelled one; whatever follows the last labelled cell is one empty cell.
 */
const meta = {
  title: 'Primitives/DataTable/FooterRow',
  component: FooterRow<Invoice, InvoiceSort, undefined>,
  args: { columns: INVOICE_COLUMNS, cells: { id: 'Page total', amount: '$188.00' } },
  render: (args) => (
    <PartTable label="Invoices" isSection>
      <tbody>
        <tr>
          {INVOICE_COLUMNS.map((c) => (
            <td key={c.id}>{c.header}</td>
          ))}
        </tr>
      </tbody>
      <FooterRow {...args} />
    </PartTable>
  ),
} satisfies Meta<typeof FooterRow<Invoice, InvoiceSort, undefined>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 'Page total' spans ID and Customer, so it sits beside the amount; Note and Actions are one empty cell. */
export const PageTotal: Story = {
  play: async ({ canvas, canvasElement }) => {
    const label = canvas.getByRole('rowheader', { name: 'Page total' });
    await expect(label).toHaveAttribute('colspan', '2');
    const foot = canvasElement.querySelector('tfoot tr')!;
    const cells = [...foot.children];
    await expect(cells.map((c) => c.getAttribute('colspan'))).toEqual(['2', '1', '2']);
    await expect(cells[1]).toHaveTextContent('$188.00');
    await expect(cells[1]).toHaveAttribute('data-align', 'end');
    await expect(cells[2]).toHaveTextContent('');
  },
};

/** Only a label, on the first column: it stays one column wide, the rest is one empty cell. */
export const LabelOnly: Story = {
  args: { cells: { id: 'No totals on this page' } },
  play: async ({ canvasElement }) => {
    const cells = [...canvasElement.querySelector('tfoot tr')!.children];
    await expect(cells.map((c) => c.getAttribute('colspan'))).toEqual([
      '1',
      String(INVOICE_COLUMNS.length - 1),
    ]);
  },
};

/** Every column labelled: no spans at all. */
export const EveryColumn: Story = {
  args: {
    cells: { id: 'Total', customer: '3 customers', amount: '$188.00', note: '—', actions: '3' },
  },
  play: async ({ canvasElement }) => {
    const cells = [...canvasElement.querySelector('tfoot tr')!.children];
    await expect(cells).toHaveLength(INVOICE_COLUMNS.length);
    await expect(cells.every((c) => c.getAttribute('colspan') === '1')).toBe(true);
  },
};

/** Nothing in the first column: the whole row is one empty cell. */
export const Empty: Story = {
  args: { cells: {} },
  play: async ({ canvasElement }) => {
    const cells = [...canvasElement.querySelector('tfoot tr')!.children];
    await expect(cells).toHaveLength(1);
    await expect(cells[0]).toHaveAttribute('colspan', String(INVOICE_COLUMNS.length));
  },
};
