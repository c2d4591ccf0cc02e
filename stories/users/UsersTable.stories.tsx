import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { UsersTable } from '../../src/components/UsersTable';
import {
  DEFAULT_USERS_SORT,
  FIVE_HUNDRED_USERS_PAGE,
  FIXTURE_DATE,
  LONG_EMAIL,
  USERS,
  USERS_PAGE,
  sortUsers,
} from '../../tests/msw/view-users';
import { withRouter } from '../support/withRouter';

const COLUMN_HEADERS = [
  'ID',
  'Email',
  'Provider',
  'Provider ID',
  'Provider Status',
  'MG Status',
  'Cadence',
  'Start',
  'Expire',
  'Last Update',
  'Actions',
];

const meta = {
  title: 'Users/UsersTable',
  component: UsersTable,
  args: {
    rows: { status: 'ready', data: USERS },
    sort: DEFAULT_USERS_SORT,
    rowCount: USERS_PAGE.total,
    firstRowIndex: 0,
    now: FIXTURE_DATE,
    onSortChange: fn(),
    onRetry: fn(),
    onRefresh: fn(),
    onAccessAction: fn(),
  },
  decorators: [
    withRouter,
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof UsersTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A page of users: every column, badge and date format of §2–§4, sorted by Last Update descending. */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'Users' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent?.replace(/[▲▼↕]/g, '').trim()),
    ).toEqual(COLUMN_HEADERS);
    // The current sort is shown, only on its own column.
    await expect(within(table).getByRole('columnheader', { name: /Last Update/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(within(table).getByRole('columnheader', { name: /^Email/ })).not.toHaveAttribute(
      'aria-sort',
    );
    await expect(within(table).getByRole('columnheader', { name: 'Actions' })).not.toHaveAttribute(
      'aria-sort',
    );
    await expect(table).toHaveAttribute('aria-rowcount', String(USERS_PAGE.total + 1));

    const rows = within(table).getAllByRole('row');
    await expect(rows).toHaveLength(USERS.length + 1);
    const ada = within(table).getByRole('row', { name: /ada@example\.com/ });
    await expect(ada).toHaveAttribute('aria-rowindex', '2');
    const cells = within(ada).getAllByRole('cell');
    await expect(cells.map((cell) => cell.textContent)).toEqual([
      '1042',
      'ada@example.com',
      'lemonsqueezy',
      '48213',
      'active',
      'Active',
      'monthly',
      '2025-03-14 10:22',
      '—',
      '2026-11-20 08:15',
      'Edit ▾',
    ]);
    await expect(
      within(ada).getByRole('button', { name: 'Edit access for ada@example.com' }),
    ).toBeEnabled();

    // Long emails are cut visually, never in the title or for screen readers.
    const long = canvas.getByText(LONG_EMAIL);
    await expect(long).toHaveAttribute('title', LONG_EMAIL);
    await expect(long.scrollWidth).toBeGreaterThan(long.clientWidth);

    // Missing values are dashes; a future expiry without a label is Scheduled.
    const noProvider = within(table).getByRole('row', { name: /no-provider@example\.com/ });
    await expect(within(noProvider).getAllByText('—').length).toBeGreaterThanOrEqual(6);
    const grace = within(table).getByRole('row', { name: /grace\.hopper/ });
    await expect(within(grace).getByText('Scheduled')).toHaveAttribute(
      'title',
      'Scheduled to expire at 2026-12-01 09:00 (UTC)',
    );

    // Sorting is the screen's: the table reports the key.
    await userEvent.click(within(table).getByRole('button', { name: 'Email' }));
    await expect(args.onSortChange).toHaveBeenLastCalledWith('email');
    await userEvent.click(within(table).getByRole('button', { name: 'Last Update' }));
    await expect(args.onSortChange).toHaveBeenLastCalledWith('updated_at');
    await expect(within(table).queryByRole('button', { name: 'Actions' })).toBeNull();
    // A still state for the screenshot.
    (document.activeElement as HTMLElement | null)?.blur();
    table.parentElement?.scrollTo({ left: 0 });
  },
};

/** Sorted by Email ascending: the arrow and aria-sort follow the `sort` prop. */
export const SortedByEmailAscending: Story = {
  args: {
    ...Ready.args,
    sort: { key: 'email', direction: 'asc' },
    rows: { status: 'ready', data: sortUsers(USERS, { key: 'email', direction: 'asc' }) },
  },
  play: async ({ canvas }) => {
    const header = canvas.getByRole('columnheader', { name: /^Email/ });
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(header).toHaveTextContent('Email▲');
    await expect(canvas.getByRole('columnheader', { name: /Last Update/ })).not.toHaveAttribute(
      'aria-sort',
    );
  },
};

/** While the page loads: 'Loading users', the table marked busy. */
export const Loading: Story = {
  args: { ...Ready.args, rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading users');
    await expect(canvas.getByRole('table', { name: 'Users' })).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getAllByRole('columnheader')).toHaveLength(COLUMN_HEADERS.length);
  },
};

/** A failed load: 'Error: {message}' with Retry, and no rows even if old ones were passed. */
export const Error: Story = {
  args: { ...Ready.args, rows: { status: 'error', message: 'Failed to load users' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Failed to load users');
    await expect(canvas.queryByText('ada@example.com')).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** No user matches: 'No users found.' with Refresh. */
export const Empty: Story = {
  args: { ...Ready.args, rows: { status: 'empty' }, rowCount: 0 },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No users found.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
  },
};

/** An action for ada is running: her Edit menu will not open; the others still do. */
export const ActionPending: Story = {
  args: { ...Ready.args, pendingActionEmails: new Set(['ada@example.com']) },
  play: async ({ canvas }) => {
    const edit = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await expect(edit).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(edit);
    await expect(within(document.body).queryByRole('menu')).toBeNull();
    await expect(
      canvas.getByRole('button', { name: 'Edit access for alan@example.org' }),
    ).not.toHaveAttribute('aria-disabled');
  },
};

/**
 * The largest §9 page (500 rows): only the rows in view (plus a margin) are rendered, with
 * aria-rowcount/aria-rowindex keeping the table's shape; the header sticks; the focused row stays
 * rendered. Its timing twin lives in bench/UsersTableRender.stories.tsx.
 */
export const FiveHundredRows: Story = {
  args: {
    ...Ready.args,
    rows: { status: 'ready', data: FIVE_HUNDRED_USERS_PAGE.rows },
    rowCount: FIVE_HUNDRED_USERS_PAGE.total,
  },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Users' });
    await expect(table).toHaveAttribute('aria-rowcount', String(FIVE_HUNDRED_USERS_PAGE.total + 1));
    const rendered = () => table.querySelectorAll('tbody tr[data-index]');
    await expect(rendered().length).toBeGreaterThan(0);
    await expect(rendered().length).toBeLessThan(60);

    // Scrolling to the end renders the last rows, numbered in the whole list.
    const scroller = table.parentElement as HTMLElement;
    const focusedEdit = within(table).getAllByRole('button', {
      name: /^Edit access for /,
    })[2] as HTMLElement;
    focusedEdit.focus();
    scroller.scrollTop = scroller.scrollHeight;
    await waitFor(() => expect(table.querySelector('tr[aria-rowindex="501"]')).not.toBeNull());
    // The focused row stays rendered (and focused) while out of view.
    await expect(focusedEdit).toHaveFocus();
    await expect(rendered().length).toBeLessThan(60);
    // Keyboard: Tab from the last row in view reaches the next row's controls (its email link and
    // Edit), not the page below.
    scroller.scrollTop = 0;
    await waitFor(() => expect(table.querySelector('tr[aria-rowindex="2"]')).not.toBeNull());
    const firstEdit = within(table.querySelector('tr[aria-rowindex="2"]') as HTMLElement).getByRole(
      'button',
      { name: /^Edit/ },
    );
    firstEdit.focus();
    for (let i = 0; i < 60; i++) await userEvent.tab();
    await expect(document.activeElement?.closest('table')).toBe(table);
    await expect(
      Number(document.activeElement?.closest('tr')?.getAttribute('aria-rowindex')),
    ).toBeGreaterThan(20);
    // Back to a still, deterministic state for the screenshot.
    (document.activeElement as HTMLElement | null)?.blur();
    scroller.scrollTop = 0;
    await waitFor(() => expect(table.querySelector('tr[aria-rowindex="2"]')).not.toBeNull());
  },
};
