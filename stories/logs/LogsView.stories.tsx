import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { LogsView } from '../../src/components/LogsView';
import type { LogEntry, LogsPage } from '../../src/domain/logs';
import { LOG_ROWS } from '../../tests/msw/fixtures-logs';
import { withRouter } from '../support/withRouter';
import { expectRefreshIgnoredWhileBusy } from '../support/refresh';

const ENTRIES: LogEntry[] = LOG_ROWS.map((r) => ({ ...r, id: String(r.id) }));
const PAGE: LogsPage = { rows: ENTRIES, total: 1_284, totalPages: 26, isTotalCapped: false };

const meta = {
  title: 'Logs/LogsView',
  component: LogsView,
  decorators: [withRouter],
  args: {
    list: { status: 'ready', data: PAGE },
    query: { page: 1, pageSize: 50, sort: { key: 'ts', direction: 'desc' } },
    filters: { level: '', q: '' },
    totalPages: 26,
    isAutoRefresh: true,
    onFiltersChange: fn(),
    onClearAll: fn(),
    onPageChange: fn(),
    onPageSizeChange: fn(),
    onRefresh: fn(),
    onAutoRefreshChange: fn(),
  },
} satisfies Meta<typeof LogsView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The latest entries: UTC timestamps to the second, level badges, messages, 'view' contexts. */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
    await expect(canvas.getByText('Server application logs (latest first).')).toBeVisible();
    const table = canvas.getByRole('table', { name: 'Server logs' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Timestamp (UTC)', 'Level', 'Message', 'Context']);
    const first = within(table).getAllByRole('row')[1]!;
    await expect(within(first).getAllByRole('cell')[0]).toHaveTextContent('2026-11-20 11:59:56');
    // Context expands and collapses; its JSON is shown as text.
    const view = within(first).getByText('view');
    await userEvent.click(view);
    await expect(within(first).getByRole('region', { name: 'Context' })).toHaveTextContent(
      '"rows": 50',
    );
    await userEvent.click(view);
    await expect(view.closest('details')).not.toHaveAttribute('open');
    // An entry without context shows a dash.
    await expect(
      within(within(table).getByRole('row', { name: /cache hit stats/ })).getAllByRole('cell')[3],
    ).toHaveTextContent('—');
    // Filters, Rows, Auto-refresh, Refresh and the pager.
    await userEvent.selectOptions(canvas.getByLabelText('Level'), 'warn');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ level: 'warn', q: '' });
    await userEvent.selectOptions(canvas.getByLabelText('Rows'), '200');
    await expect(args.onPageSizeChange).toHaveBeenLastCalledWith(200);
    await expect(canvas.getByLabelText('Auto-refresh')).toBeChecked();
    await userEvent.click(canvas.getByLabelText('Auto-refresh'));
    await expect(args.onAutoRefreshChange).toHaveBeenLastCalledWith(false);
    const pager = canvas.getByRole('navigation', { name: 'Log pages' });
    await expect(pager).toHaveTextContent('Page 1 of 26');
    await expect(pager).toHaveTextContent('Total: 1,284');
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenLastCalledWith(2);
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** While loading: 'Loading…', and Refresh (focusable, aria-disabled) does nothing. */
export const Loading: Story = {
  args: { list: { status: 'loading' }, totalPages: null },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading…');
    await expectRefreshIgnoredWhileBusy(canvas, args.onRefresh);
  },
};

/** A failed load: 'Failed to load logs' (§8) with Retry. */
export const Error: Story = {
  args: { list: { status: 'error', message: 'Failed to load logs' }, totalPages: null },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Failed to load logs');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Nothing matches: 'No logs found.'. */
export const Empty: Story = {
  args: { list: { status: 'empty' }, totalPages: 1, filters: { level: 'fatal', q: 'nothing' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No logs found.')).toBeVisible();
    await expect(canvas.getByRole('navigation', { name: 'Log pages' })).toHaveTextContent(
      'Total: 0',
    );
  },
};

/** Auto-refresh off and a long message wrapping in its cell. */
export const AutoRefreshOff: Story = {
  args: {
    isAutoRefresh: false,
    query: { page: 3, pageSize: 200, sort: { key: 'ts', direction: 'desc' } },
    totalPages: 7,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Auto-refresh')).not.toBeChecked();
    await expect(canvas.getByLabelText('Rows')).toHaveValue('200');
    await expect(canvas.getByText(/vendor variables carried over/)).toBeVisible();
  },
};

/** A common search the server stopped counting at its cap: 'Total: 1,000+'. */
export const SearchTotalCapped: Story = {
  args: {
    filters: { level: '', q: 'request' },
    list: { status: 'ready', data: { ...PAGE, total: 1000, totalPages: 20, isTotalCapped: true } },
    totalPages: 20,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('navigation', { name: 'Log pages' })).toHaveTextContent(
      'Total: 1,000+',
    );
  },
};
