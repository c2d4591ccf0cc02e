import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { UsersView } from '../../src/components/UsersView';
import { isActiveUser } from '../../src/domain/status';
import { USERS_DEFAULT_PAGE_SIZE } from '../../src/domain/types';
import {
  DEFAULT_USERS_SORT,
  FIVE_HUNDRED_USERS_PAGE,
  FIXTURE_DATE,
  NO_FILTERS,
  USERS,
  USERS_PAGE,
} from '../../tests/msw/view-users';
import { withRouter } from '../support/withRouter';

/** The §9 defaults: page 1, 50 per page, Last Update descending. */
const DEFAULT_QUERY = { page: 1, pageSize: USERS_DEFAULT_PAGE_SIZE, sort: DEFAULT_USERS_SORT };

const meta = {
  title: 'Users/UsersView',
  component: UsersView,
  args: {
    list: { status: 'ready', data: USERS_PAGE },
    query: DEFAULT_QUERY,
    filters: NO_FILTERS,
    totalPages: USERS_PAGE.totalPages,
    now: FIXTURE_DATE,
    actionResults: [],
    onFiltersChange: fn(),
    onClearAll: fn(),
    onSortChange: fn(),
    onPageChange: fn(),
    onPageSizeChange: fn(),
    onRefresh: fn(),
    onAccessAction: fn(),
    onDismissActionResult: fn(),
  },
  decorators: [
    withRouter,
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof UsersView>;
export default meta;
type Story = StoryObj<typeof meta>;

const body = () => within(document.body);

/** A page of users: title, header text, filters, table and pager. */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    const region = canvas.getByRole('region', { name: 'Users' });
    // Header text: page, total, and the users on this page who count as active (§4): ada, grace,
    // alan, maximilian, barbara (label 'Pending invite' but mg_status active) and donald.
    await expect(within(region).getAllByText('Page 1 of 3')).toHaveLength(2);
    await expect(canvas.getAllByText('47 users')).toHaveLength(2);
    await expect(within(region).getAllByText('6 active on this page')).toHaveLength(2);
    await expect(canvas.getByRole('search', { name: 'Users filters' })).toBeVisible();
    await expect(canvas.getAllByRole('row')).toHaveLength(USERS.length + 1);
    const pager = canvas.getByRole('navigation', { name: 'Users pages' });
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2);
    await userEvent.selectOptions(
      within(pager).getByRole('combobox', { name: 'Page size' }),
      '100',
    );
    await expect(args.onPageSizeChange).toHaveBeenCalledWith(100);
    await userEvent.click(canvas.getByRole('button', { name: 'Email' }));
    await expect(args.onSortChange).toHaveBeenCalledWith('email');
    (document.activeElement as HTMLElement | null)?.blur();
    canvas.getByRole('table').parentElement?.scrollTo({ left: 0 });
  },
};

/** The first load: 'Loading users'; the page count is not known yet. */
export const Loading: Story = {
  args: { ...Ready.args, list: { status: 'loading' }, totalPages: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading users');
    const pager = canvas.getByRole('navigation', { name: 'Users pages' });
    await expect(pager).toHaveAttribute('aria-busy', 'true');
    await expect(pager).toHaveTextContent('Page 1 of …');
    await expect(canvas.queryByText(/active on this page/)).toBeNull();
  },
};

/** A failed load: 'Error: {message}' with Retry; no rows. */
export const Error: Story = {
  args: {
    ...Ready.args,
    list: { status: 'error', message: 'Failed to load users' },
    totalPages: null,
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Failed to load users');
    await expect(canvas.getAllByRole('row')).toHaveLength(2);
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Nothing matches: 'No users found.' with Refresh; the header says so in figures. */
export const Empty: Story = {
  args: { ...Ready.args, list: { status: 'empty' }, totalPages: 1 },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No users found.')).toBeVisible();
    await expect(canvas.getAllByText('0 users')).toHaveLength(2);
    await userEvent.click(
      within(canvas.getByRole('table')).getByRole('button', { name: 'Refresh' }),
    );
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Filters set: the row shows them; Clear asks the screen to reset. */
export const Filtered: Story = {
  args: {
    ...Ready.args,
    filters: {
      ...NO_FILTERS,
      provider: 'clickbank',
      mgStatus: 'cancelled',
      expFrom: '2026-10-01',
    },
    totalPages: 1,
    list: {
      status: 'ready',
      data: {
        rows: USERS.filter((u) => u.provider === 'clickbank' && u.mgStatus === 'cancelled'),
        total: 2,
        totalPages: 1,
      },
    },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('combobox', { name: 'Provider' })).toHaveValue('clickbank');
    await expect(canvas.getByRole('combobox', { name: 'MG Status' })).toHaveValue('cancelled');
    await expect(canvas.getByLabelText('Expiry from')).toHaveValue('2026-10-01');
    await expect(canvas.getAllByRole('row')).toHaveLength(3);
    await expect(canvas.getAllByText('2 users')).toHaveLength(2);
    await expect(canvas.getAllByText('0 active on this page')).toHaveLength(2);
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** After actions on two users: each §8 result stands in its own alert, named by the user, until dismissed. */
export const WithActionResults: Story = {
  args: {
    ...Ready.args,
    actionResults: [
      {
        id: 'a1',
        email: 'ada@example.com',
        tone: 'success',
        message: 'OK (scheduled for 2026-11-21 09:00 UTC)',
      },
      {
        id: 'a2',
        email: 'alan@example.org',
        tone: 'warning',
        message: 'Done, but Discourse error (429): Too many requests',
      },
    ],
  },
  play: async ({ canvas, args }) => {
    const result = canvas
      .getAllByRole('status')
      .find((el) => el.textContent?.includes('OK (scheduled'));
    await expect(result).toHaveTextContent(
      'ada@example.com:OK (scheduled for 2026-11-21 09:00 UTC)',
    );
    await expect(
      canvas.getByText('Done, but Discourse error (429): Too many requests'),
    ).toBeVisible();
    await userEvent.click(canvas.getAllByRole('button', { name: 'Dismiss' })[1]!);
    await expect(args.onDismissActionResult).toHaveBeenCalledWith('a2');
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** The largest page size (500, §9): rows render as they scroll into view; counts cover the page. */
export const FiveHundredRows: Story = {
  args: {
    ...Ready.args,
    query: { ...DEFAULT_QUERY, pageSize: 500 },
    totalPages: FIVE_HUNDRED_USERS_PAGE.totalPages,
    list: { status: 'ready', data: FIVE_HUNDRED_USERS_PAGE },
  },
  play: async ({ canvas }) => {
    const active = FIVE_HUNDRED_USERS_PAGE.rows.filter((u) => isActiveUser(u, FIXTURE_DATE)).length;
    await expect(active).toBeGreaterThan(0);
    await expect(canvas.getAllByText(`${active} active on this page`)).toHaveLength(2);
    await expect(canvas.getAllByText('1,873 users')).toHaveLength(2);
    const table = canvas.getByRole('table', { name: 'Users' });
    await expect(table).toHaveAttribute('aria-rowcount', '1874');
    await expect(table.querySelectorAll('tbody tr[data-index]').length).toBeLessThan(60);
    await expect(canvas.getByRole('combobox', { name: 'Page size' })).toHaveValue('500');
  },
};

/** Revoke on a date…: keep the default (tomorrow 09:00 UTC), confirm, and the screen gets the wire date. */
export const ActionsFlow: Story = {
  play: async ({ canvas, args }) => {
    const row = canvas.getByRole('row', { name: /alan@example\.org/ });
    const edit = within(row).getByRole('button', { name: 'Edit access for alan@example.org' });
    await userEvent.click(edit);
    await userEvent.click(await body().findByRole('menuitem', { name: 'Revoke on a date…' }));
    const dialog = await body().findByRole('dialog', { name: 'Revoke access on a date' });
    await expect(dialog).toHaveTextContent('alan@example.org');
    await expect(within(dialog).getByLabelText('Date and time (UTC)')).toHaveValue(
      '2026-11-21T09:00',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(args.onAccessAction).toHaveBeenCalledOnce();
    await expect(args.onAccessAction).toHaveBeenCalledWith('alan@example.org', {
      kind: 'revoke_on_date',
      date: '2026-11-21 09:00:00',
    });
    await waitFor(() => expect(body().queryByRole('dialog')).toBeNull());
    await expect(edit).toHaveFocus();
    edit.blur();
    canvas.getByRole('table').parentElement?.scrollTo({ left: 0 });
  },
};

/** Revoke now: the confirmation names the user; Cancel returns focus to Edit; confirming calls back. */
export const RevokeNowFlow: Story = {
  play: async ({ canvas, args }) => {
    const edit = canvas.getByRole('button', { name: 'Edit access for ada@example.com' });
    await userEvent.click(edit);
    await userEvent.click(await body().findByRole('menuitem', { name: 'Revoke now' }));
    let dialog = await body().findByRole('alertdialog', { name: 'Revoke access now?' });
    await expect(dialog).toHaveAccessibleDescription(
      'ada@example.com loses forum access immediately.',
    );
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(body().queryByRole('alertdialog')).toBeNull());
    await expect(edit).toHaveFocus();
    await expect(args.onAccessAction).not.toHaveBeenCalled();

    await userEvent.keyboard('{Enter}');
    await userEvent.click(await body().findByRole('menuitem', { name: 'Revoke now' }));
    dialog = await body().findByRole('alertdialog', { name: 'Revoke access now?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke now' }));
    await expect(args.onAccessAction).toHaveBeenCalledOnce();
    await expect(args.onAccessAction).toHaveBeenCalledWith('ada@example.com', {
      kind: 'revoke_now',
    });
    await waitFor(() => expect(body().queryByRole('alertdialog')).toBeNull());
    await expect(edit).toHaveFocus();
    edit.blur();
    canvas.getByRole('table').parentElement?.scrollTo({ left: 0 });
  },
};

/** A viewer: the list reads as usual, a note says why, and every Edit menu stays shut. */
export const ViewerRole: Story = {
  args: {
    ...Ready.args,
    actionsBlockedReason:
      'Your role (Viewer) cannot run access actions and enforce-now: ask an owner for Support.',
  },
  play: async ({ canvas, args }) => {
    // The note above the table (each Edit button also carries it as its description).
    await expect(
      canvas.getByText(
        'Your role (Viewer) cannot run access actions and enforce-now: ask an owner for Support.',
        { selector: 'p' },
      ),
    ).toBeVisible();
    const edits = canvas.getAllByRole('button', { name: /^Edit access for / });
    await expect(edits).toHaveLength(USERS.length);
    for (const edit of edits) await expect(edit).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(edits[0]!);
    await expect(body().queryByRole('menu')).toBeNull();
    await expect(args.onAccessAction).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
