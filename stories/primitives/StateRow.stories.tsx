import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { Button } from '../../src/components/Button';
import { StateRow } from '../../src/components/DataTable/StateRow';
import { INVOICE_COLUMNS, PartTable } from '../support/dataTableParts';

/** DataTable's single body row of the loading, error and empty states, across every column. */
const meta = {
  title: 'Primitives/DataTable/StateRow',
  component: StateRow,
  args: {
    columnCount: INVOICE_COLUMNS.length,
    children: <p role="status">Loading invoices…</p>,
  },
  render: (args) => (
    <PartTable label="Invoices">
      <StateRow {...args} />
    </PartTable>
  ),
} satisfies Meta<typeof StateRow>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Loading: one cell spanning every column, holding the status. */
export const Loading: Story = {
  play: async ({ canvas }) => {
    const cell = canvas.getByRole('cell');
    await expect(cell).toHaveAttribute('colspan', String(INVOICE_COLUMNS.length));
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading invoices…');
  },
};

const onRetry = fn();

/** Error: the alert and its Retry button in the row. */
export const ErrorWithRetry: Story = {
  args: {
    children: (
      <>
        <p role="alert">Error: Internal server error</p>
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      </>
    ),
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Internal server error');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(onRetry).toHaveBeenCalled();
  },
};

/** Empty, with a long message that wraps inside the spanning cell. */
export const EmptyLongText: Story = {
  args: {
    children: (
      <p role="status">
        No invoices match these filters. Clear a filter, widen the date range, or check that the
        provider sent its webhooks for this period before looking again.
      </p>
    ),
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(/before looking again\.$/);
    const scroller = canvasElement.querySelector('table')!.parentElement!;
    await expect(scroller.scrollWidth).toBeLessThanOrEqual(scroller.clientWidth);
  },
};
