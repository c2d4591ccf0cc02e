import type { Meta, StoryObj } from '@storybook/react-vite';
import type { CSSProperties } from 'react';
import { expect } from 'storybook/test';
import { Button } from '../../src/components/Button';
import { VirtualRows } from '../../src/components/DataTable/VirtualRows';
import { INVOICE_COLUMNS, PartTable } from '../support/dataTableParts';

const ROW_HEIGHT = 40;

/** The virtualiser items of rows `first` to `last` (inclusive), each ROW_HEIGHT px tall. */
function rowWindow(first: number, last: number) {
  return Array.from({ length: last - first + 1 }, (_, k) => {
    const index = first + k;
    return { index, start: index * ROW_HEIGHT, end: (index + 1) * ROW_HEIGHT, key: index };
  });
}

/** A rendered row, as tall as the virtualiser measures it, with a row action as tables have. */
function renderRow(index: number) {
  return (
    <tr key={index} data-index={index} style={{ height: ROW_HEIGHT }}>
      <td colSpan={INVOICE_COLUMNS.length - 1}>Invoice {index + 1}</td>
      <td>
        <Button size="small">View</Button>
      </td>
    </tr>
  );
}

/** The rendered window of a large page, with hidden spacer rows for the rows left out. */
const meta = {
  title: 'Primitives/DataTable/VirtualRows',
  component: VirtualRows,
  args: {
    items: rowWindow(0, 4),
    totalSize: 1000 * ROW_HEIGHT,
    columnCount: INVOICE_COLUMNS.length,
    render: renderRow,
  },
  render: (args) => (
    // DataTable's own scroller, held to 240 px so the spacers scroll.
    <div style={{ '--data-table-max-height': '240px' } as CSSProperties}>
      <PartTable label="Invoices">
        <VirtualRows {...args} />
      </PartTable>
    </div>
  ),
} satisfies Meta<typeof VirtualRows>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The first rows of the page, then one spacer as tall as the rest. */
export const AtTheTop: Story = {
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getAllByRole('row')).toHaveLength(5);
    await expect(canvas.getByText('Invoice 1')).toBeVisible();
    const spacers = canvasElement.querySelectorAll('tr[aria-hidden="true"]');
    await expect(spacers).toHaveLength(1);
    await expect(spacers[0]!.querySelector('td')).toHaveStyle({ height: `${995 * ROW_HEIGHT}px` });
    await expect(spacers[0]!.querySelector('td')).toHaveAttribute(
      'colspan',
      String(INVOICE_COLUMNS.length),
    );
  },
};

/** A window in the middle: a spacer before it and one after it. */
export const InTheMiddle: Story = {
  args: { items: rowWindow(500, 504) },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('Invoice 501')).toBeInTheDocument();
    const heights = [...canvasElement.querySelectorAll('tr[aria-hidden="true"] td')].map(
      (td) => (td as HTMLElement).style.height,
    );
    await expect(heights).toEqual([`${500 * ROW_HEIGHT}px`, `${495 * ROW_HEIGHT}px`]);
  },
};

/** The focused row kept far outside the window: a spacer between it and the window. */
export const KeepsFocusedRow: Story = {
  args: { items: [...rowWindow(0, 0), ...rowWindow(10, 13)] },
  play: async ({ canvasElement }) => {
    const rows = [...canvasElement.querySelectorAll('tbody tr')];
    await expect(rows.map((r) => r.getAttribute('data-index') ?? 'gap')).toEqual([
      '0',
      'gap',
      '10',
      '11',
      '12',
      '13',
      'gap',
    ]);
  },
};

/** The whole page fits: no spacer at all. */
export const NoSpacer: Story = {
  args: { items: rowWindow(0, 2), totalSize: 3 * ROW_HEIGHT },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getAllByRole('row')).toHaveLength(3);
    await expect(canvasElement.querySelector('tr[aria-hidden="true"]')).toBeNull();
  },
};
