import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { LogsTable } from '../../src/components/LogsTable';
import type { LogEntry } from '../../src/domain/logs';
import { LOG_ROWS, makeLogRows } from '../../tests/msw/fixtures-logs';
import { withRouter } from '../support/withRouter';

const ENTRIES: LogEntry[] = LOG_ROWS.map((r) => ({ ...r, id: String(r.id) }));

const meta = {
  title: 'Logs/LogsTable',
  component: LogsTable,
  decorators: [withRouter],
  args: {
    rows: { status: 'ready', data: ENTRIES },
    rowCount: ENTRIES.length,
    onRetry: fn(),
    onRefresh: fn(),
  },
} satisfies Meta<typeof LogsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The four §2 columns; nothing sorts (the server's order is latest first). */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Server logs' });
    await expect(
      within(table).queryAllByRole('button', { name: /Timestamp|Level|Message/ }),
    ).toHaveLength(0);
    await expect(table).toHaveAttribute('aria-rowcount', String(ENTRIES.length + 1));
    const fatal = within(table).getByRole('row', { name: /database unavailable/ });
    await expect(within(fatal).getByText('fatal')).toHaveAttribute('data-tone', 'done');
  },
};

/** A context opens under 'view' as JSON, and closes again. */
export const ContextOpen: Story = {
  play: async ({ canvas }) => {
    const row = canvas.getByRole('row', { name: /LemonSqueezy refresh failed/ });
    await userEvent.click(within(row).getByText('view'));
    await expect(within(row).getByRole('region', { name: 'Context' })).toHaveTextContent(
      '"message": "Bad gateway"',
    );
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** 200 rows (Rows = 200): rendered as they scroll into view, announced whole. */
export const TwoHundredRows: Story = {
  args: {
    rows: { status: 'ready', data: makeLogRows(200).map((r) => ({ ...r, id: String(r.id) })) },
    rowCount: 2_000,
  },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Server logs' });
    await expect(table).toHaveAttribute('aria-rowcount', '2001');
    await expect(table.querySelectorAll('tbody tr[data-index]').length).toBeLessThan(60);
  },
};

/** Loading. */
export const Loading: Story = {
  args: { rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading…');
  },
};

/** Failed: 'Failed to load logs' with Retry. */
export const Error: Story = {
  args: { rows: { status: 'error', message: 'Failed to load logs' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Failed to load logs');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Nothing matches: 'No logs found.' with Refresh. */
export const Empty: Story = {
  args: { rows: { status: 'empty' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No logs found.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
