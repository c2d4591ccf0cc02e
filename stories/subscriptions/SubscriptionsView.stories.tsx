import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import {
  SubscriptionsView,
  type SubscriptionDrawerState,
  type SubscriptionsViewProps,
} from '../../src/components/SubscriptionsView';
import type { SubscriptionRow } from '../../src/domain/types';
import {
  CLICKBANK_DETAIL,
  CLICKBANK_ORDERS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  EMPTY_FILTERS,
  LEMONSQUEEZY_DETAIL,
  LONG_EMAIL,
  LONG_TEXT_ROWS,
  MISSING_AMOUNT_ROWS,
  MIXED_CURRENCY_ROWS,
  USD_ROWS,
  USD_ROWS_TOTAL_TEXT,
  subscriptionsPage,
} from '../../tests/msw/view-subscriptions';
import { withRouter } from '../support/withRouter';

/** The drawer's Audit section with no rows (its own states are the drawer's stories). */
const NO_AUDIT: SubscriptionDrawerState['audit'] = {
  rows: { status: 'empty' },
  allRowsPath: '/audit',
};

/** A closed drawer. */
const CLOSED: SubscriptionDrawerState = {
  openRow: null,
  detail: { status: 'loading' },
  orders: { status: 'empty' },
  audit: NO_AUDIT,
};

/** The footer's total cell (after the 'Page total' row header). */
function footerTotal(canvas: HTMLElement) {
  return within(canvas).getByRole('rowheader', { name: 'Page total' }).nextElementSibling;
}

/** What the screen would load for a row: the LemonSqueezy or ClickBank detail fixture. */
function drawerFor(row: SubscriptionRow | null): SubscriptionDrawerState {
  if (row == null) return CLOSED;
  if (row.provider === 'clickbank') {
    return {
      openRow: row,
      detail: { status: 'ready', data: CLICKBANK_DETAIL },
      orders: { status: 'ready', data: CLICKBANK_ORDERS },
      audit: NO_AUDIT,
    };
  }
  return {
    openRow: row,
    detail: { status: 'ready', data: { ...LEMONSQUEEZY_DETAIL, email: row.email, name: row.name } },
    orders: { status: 'empty' },
    audit: NO_AUDIT,
  };
}

/**
 * Stands in for the screen: keeps which row is open, so the drawer really opens and closes and
 * focus can be seen returning to the trigger.
 */
function WithOpenableDrawer(props: SubscriptionsViewProps) {
  const [openRow, setOpenRow] = useState<SubscriptionRow | null>(null);
  return (
    <SubscriptionsView
      {...props}
      drawer={drawerFor(openRow)}
      onOpenDetails={(row) => {
        props.onOpenDetails(row);
        setOpenRow(row);
      }}
      onCloseDetails={() => {
        props.onCloseDetails();
        setOpenRow(null);
      }}
    />
  );
}

const meta = {
  title: 'Subscriptions/SubscriptionsView',
  component: SubscriptionsView,
  decorators: [withRouter],
  args: {
    list: { status: 'ready', data: subscriptionsPage(USD_ROWS, 312) },
    query: { page: 1, pageSize: DEFAULT_PAGE_SIZE, sort: DEFAULT_SORT },
    totalPages: 7,
    filters: EMPTY_FILTERS,
    drawer: CLOSED,
    onPageChange: fn(),
    onPageSizeChange: fn(),
    onSortChange: fn(),
    onFiltersChange: fn(),
    onClearAll: fn(),
    onRefresh: fn(),
    onOpenDetails: fn(),
    onCloseDetails: fn(),
  },
} satisfies Meta<typeof SubscriptionsView>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * A page of subscriptions: title, hint, filters, table and pager (page sizes 20, 50, 100, 200);
 * paging, sorting and filtering are reported to the screen; the drawer stays closed.
 */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
    await expect(canvas.getByText('Click an email to view details.')).toBeVisible();
    await expect(canvas.getByRole('search', { name: 'Subscription filters' })).toBeVisible();
    await expect(canvas.getAllByRole('row')).toHaveLength(1 + USD_ROWS.length + 1);

    const pager = canvas.getByRole('navigation', { name: 'Subscriptions pages' });
    await expect(pager).toHaveTextContent('Page 1 of 7');
    await expect(pager).toHaveTextContent('312');
    const size = within(pager).getByRole('combobox');
    await expect([...(size as HTMLSelectElement).options].map((o) => o.value)).toEqual([
      '20',
      '50',
      '100',
      '200',
    ]);
    await expect(size).toHaveValue('50');
    await userEvent.selectOptions(size, '100');
    await expect(args.onPageSizeChange).toHaveBeenCalledWith(100);
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2);
    await userEvent.click(within(pager).getByRole('button', { name: 'Prev' }));
    await expect(args.onPageChange).toHaveBeenCalledTimes(1);
    await userEvent.click(within(pager).getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();

    await userEvent.click(canvas.getByRole('button', { name: /^Amount/ }));
    await expect(args.onSortChange).toHaveBeenCalledWith('amount');
    await userEvent.type(canvas.getByLabelText('Email'), 'a');
    await expect(args.onFiltersChange).toHaveBeenCalledWith({ ...EMPTY_FILTERS, email: 'a' });
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();

    await userEvent.click(canvas.getByRole('button', { name: 'grace@example.org' }));
    await expect(args.onOpenDetails).toHaveBeenCalledWith(USD_ROWS[2]);
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
  },
};

/** Loading: the table says so, the pager waits ('Page 1 of …') with its buttons inactive. */
export const Loading: Story = {
  args: { ...Ready.args, list: { status: 'loading' }, totalPages: null },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading subscriptions…');
    const pager = canvas.getByRole('navigation', { name: 'Subscriptions pages' });
    await expect(pager).toHaveTextContent('Page 1 of …');
    await userEvent.click(within(pager).getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).not.toHaveBeenCalled();
  },
};

/** The list failed: '{status} {message}' as the screen gives it (§8), with Retry; no pager. */
export const Error: Story = {
  args: {
    ...Ready.args,
    list: { status: 'error', message: '503 Backend database is unavailable' },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      /^503 Backend database is unavailable/,
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    await expect(canvas.queryByRole('navigation', { name: 'Subscriptions pages' })).toBeNull();
  },
};

/** The fallback failure text of §8 when the error carried no status or message. */
export const ErrorFallback: Story = {
  args: {
    ...Ready.args,
    list: { status: 'error', message: 'Failed to load subscriptions' },
    totalPages: null,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(/^Failed to load subscriptions/);
  },
};

/** Nothing matches the filters: 'No subscriptions found.' with Refresh; the pager reads 'Page 1 of 1'. */
export const Empty: Story = {
  args: { ...Ready.args, list: { status: 'empty' }, totalPages: 1 },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No subscriptions found.')).toBeVisible();
    await userEvent.click(
      within(canvas.getByRole('table')).getByRole('button', { name: 'Refresh' }),
    );
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    const pager = canvas.getByRole('navigation', { name: 'Subscriptions pages' });
    await expect(pager).toHaveTextContent('Page 1 of 1');
    await expect(pager).toHaveTextContent('Total: 0');
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** One currency on the page: the footer sums it (§2). */
export const SingleCurrency: Story = {
  args: { ...Ready.args },
  play: async ({ canvas }) => {
    await expect(footerTotal(canvas.getByRole('table'))).toHaveTextContent(
      new RegExp(`^${USD_ROWS_TOTAL_TEXT}$`),
    );
  },
};

/** Two currencies on the page: the footer reads '— Mixed —' (§2). */
export const MixedCurrency: Story = {
  args: {
    ...Ready.args,
    list: { status: 'ready', data: subscriptionsPage(MIXED_CURRENCY_ROWS, 312) },
  },
  play: async ({ canvas }) => {
    await expect(footerTotal(canvas.getByRole('table'))).toHaveTextContent(/^— Mixed —$/);
  },
};

/** Missing amounts are dashes and left out of the total; no currency counts as USD. */
export const MissingAmounts: Story = {
  args: {
    ...Ready.args,
    list: { status: 'ready', data: subscriptionsPage(MISSING_AMOUNT_ROWS) },
    totalPages: 1,
  },
  play: async ({ canvas }) => {
    await expect(footerTotal(canvas.getByRole('table'))).toHaveTextContent(/^10\.00 USD$/);
    await expect(canvas.getByRole('navigation', { name: 'Subscriptions pages' })).toHaveTextContent(
      'Page 1 of 1',
    );
  },
};

/** Very long emails and names wrap in their cells; the page keeps its layout. */
export const LongText: Story = {
  args: {
    ...Ready.args,
    list: { status: 'ready', data: subscriptionsPage(LONG_TEXT_ROWS) },
    totalPages: 1,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: LONG_EMAIL })).toBeVisible();
    await expect(
      canvas.getByRole('button', { name: `View details for ${LONG_EMAIL}` }),
    ).toBeVisible();
    const view = canvas.getByRole('heading', { level: 1 }).closest('div')!;
    await expect(view.scrollWidth).toBeLessThanOrEqual(view.clientWidth);
  },
};

/**
 * The drawer opened from the list, as the screen drives it: the email opens it; Escape, the
 * backdrop and Close each close it, and focus returns to the button that opened it (email or View,
 * by mouse or keyboard; Radix restores it a tick after closing). Left open on a ClickBank subscription.
 */
export const DrawerOpen: Story = {
  render: (args) => <WithOpenableDrawer {...args} />,
  play: async ({ canvas, args }) => {
    const body = within(document.body);
    const jordan = canvas.getByRole('button', { name: 'jordan.reyes@example.net' });
    await userEvent.click(jordan);
    let drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    await expect(args.onOpenDetails).toHaveBeenLastCalledWith(USD_ROWS[1]);
    await expect(
      within(drawer).getByRole('heading', { level: 3, name: 'Order details' }),
    ).toBeVisible();
    await expect(within(drawer).getByRole('button', { name: 'Close' })).toHaveFocus();

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(args.onCloseDetails).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(jordan).toHaveFocus());

    const viewAda = canvas.getByRole('button', { name: 'View details for ada@example.com' });
    await userEvent.click(viewAda);
    drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    await expect(drawer).toHaveTextContent('ada@example.com · lemonsqueezy');
    await userEvent.click(drawer.previousElementSibling as HTMLElement);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(args.onCloseDetails).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(viewAda).toHaveFocus());

    const grace = canvas.getByRole('button', { name: 'grace@example.org' });
    grace.focus();
    await userEvent.keyboard('{Enter}');
    drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(args.onCloseDetails).toHaveBeenCalledTimes(3);
    await waitFor(() => expect(grace).toHaveFocus());

    await userEvent.click(
      canvas.getByRole('button', { name: 'View details for jordan.reyes@example.net' }),
    );
    drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    await expect(drawer).toHaveTextContent('jordan.reyes@example.net · clickbank');
    await expect(args.onOpenDetails).toHaveBeenCalledTimes(4);
  },
};
