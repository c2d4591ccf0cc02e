import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SubscriptionsTable } from '../../src/components/SubscriptionsTable';
import { SUBSCRIPTION_SORT_KEYS } from '../../src/domain/types';
import {
  DEFAULT_SORT,
  LONG_EMAIL,
  LONG_TEXT_ROWS,
  MISSING_AMOUNT_ROWS,
  MIXED_CURRENCY_ROWS,
  NO_AMOUNT_ROWS,
  USD_ROWS,
  USD_ROWS_TOTAL_TEXT,
} from '../../tests/msw/view-subscriptions';
import { withRouter } from '../support/withRouter';

/** The §2 column headers in order. */
const HEADERS = [
  'ID',
  'Email / Name',
  'Provider',
  'Sub ID',
  'Status',
  'Cadence',
  'Start',
  'Renews',
  'Expires',
  'Amount',
  'Last Update',
  'Actions',
];

/** The footer's total cell (the one after the 'Page total' row header). */
function footerTotal(table: HTMLElement) {
  const footer = table.querySelector('tfoot');
  if (!footer) throw new globalThis.Error('No footer row');
  return within(footer).getByRole('rowheader', { name: 'Page total' }).nextElementSibling;
}

const meta = {
  title: 'Subscriptions/SubscriptionsTable',
  component: SubscriptionsTable,
  decorators: [withRouter],
  args: {
    rows: { status: 'ready', data: USD_ROWS },
    sort: DEFAULT_SORT,
    onSortChange: fn(),
    onOpenDetails: fn(),
    onRefresh: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof SubscriptionsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * A page in one currency: the §2 columns, row_id descending marked with aria-sort, every sortable
 * header reporting its key, the email and View opening a row's details, the page total in USD.
 */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'Subscriptions' });
    const headers = within(table).getAllByRole('columnheader');
    await expect(headers.map((th) => th.textContent?.replace(/[▲▼↕]/g, ''))).toEqual(HEADERS);
    await expect(headers[0]).toHaveAttribute('aria-sort', 'descending');
    for (const th of headers.slice(1)) await expect(th).not.toHaveAttribute('aria-sort');
    await expect(within(headers[11]!).queryByRole('button')).toBeNull();

    const sortButtons = headers.slice(0, 11).map((th) => within(th).getByRole('button'));
    for (const button of sortButtons) await userEvent.click(button);
    await expect(args.onSortChange).toHaveBeenCalledTimes(SUBSCRIPTION_SORT_KEYS.length);
    for (const [index, key] of SUBSCRIPTION_SORT_KEYS.entries()) {
      await expect(args.onSortChange).toHaveBeenNthCalledWith(index + 1, key);
    }

    const rows = within(table).getAllByRole('row').slice(1, -1);
    await expect(rows).toHaveLength(USD_ROWS.length);
    const first = within(rows[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    await expect(first).toEqual([
      '2046',
      'ada@example.comAda LovelaceCustomer page',
      'lemonsqueezy',
      '48213',
      'active',
      'Monthly',
      '2025-03-14 10:22',
      '2026-12-14 10:22',
      '—',
      '19.99 USD',
      '2026-11-20 08:15',
      'View',
    ]);
    await expect(within(rows[0]!).getByText('active')).toHaveAttribute('data-tone', 'success');
    await expect(within(rows[2]!).getByText('trialing')).toHaveAttribute('data-tone', 'success');
    await expect(within(rows[3]!).getByText('past_due')).toHaveAttribute('data-tone', 'warning');
    await expect(within(rows[4]!).getByText('paused')).toHaveAttribute('data-tone', 'warning');
    await expect(within(rows[5]!).getByText('cancelled')).toHaveAttribute('data-tone', 'danger');
    await expect(footerTotal(table)).toHaveTextContent(USD_ROWS_TOTAL_TEXT);

    await userEvent.click(canvas.getByRole('button', { name: 'jordan.reyes@example.net' }));
    await expect(args.onOpenDetails).toHaveBeenLastCalledWith(USD_ROWS[1]);
    await userEvent.click(
      canvas.getByRole('button', { name: 'View details for alan@example.co.uk' }),
    );
    await expect(args.onOpenDetails).toHaveBeenLastCalledWith(USD_ROWS[5]);
    await expect(args.onOpenDetails).toHaveBeenCalledTimes(2);
  },
};

/** Sorted by amount ascending: only the Amount header carries aria-sort. */
export const SortedByAmountAscending: Story = {
  args: { ...Default.args, sort: { key: 'amount', direction: 'asc' } },
  play: async ({ canvas }) => {
    const sorted = canvas.getAllByRole('columnheader').filter((th) => th.hasAttribute('aria-sort'));
    await expect(sorted).toHaveLength(1);
    await expect(sorted[0]).toHaveTextContent('Amount');
    await expect(sorted[0]).toHaveAttribute('aria-sort', 'ascending');
  },
};

/** Loading: the headers stay, the body says so politely, no footer total. */
export const Loading: Story = {
  args: { ...Default.args, rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Subscriptions' });
    await expect(table).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading subscriptions…');
    await expect(table.querySelector('tfoot')).toBeNull();
  },
};

/** Failed: the message as the screen gives it ('{status} {message}', §8), with Retry. */
export const Error: Story = {
  args: { ...Default.args, rows: { status: 'error', message: '500 Internal Server Error' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('500 Internal Server Error');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** No rows: 'No subscriptions found.' with Refresh. */
export const Empty: Story = {
  args: { ...Default.args, rows: { status: 'empty' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No subscriptions found.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    await expect(canvas.queryByRole('rowheader', { name: 'Page total' })).toBeNull();
  },
};

/** A ready page with no rows reads the same as empty. */
export const ReadyButNoRows: Story = {
  args: { ...Default.args, rows: { status: 'ready', data: [] } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No subscriptions found.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Refresh' })).toBeVisible();
  },
};

/** Two currencies on the page: the footer reads '— Mixed —' (§2). */
export const MixedCurrency: Story = {
  args: { ...Default.args, rows: { status: 'ready', data: MIXED_CURRENCY_ROWS } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('27.00 EUR')).toBeVisible();
    await expect(footerTotal(canvas.getByRole('table'))).toHaveTextContent(/^— Mixed —$/);
  },
};

/**
 * Missing amounts show a dash and are left out of the total; an amount without a currency counts
 * as USD (§1); missing status, cadence and dates are dashes.
 */
export const MissingAmounts: Story = {
  args: { ...Default.args, rows: { status: 'ready', data: MISSING_AMOUNT_ROWS } },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table');
    const rows = within(table).getAllByRole('row').slice(1, -1);
    await expect(within(rows[0]!).getAllByRole('cell')[9]).toHaveTextContent(/^—$/);
    await expect(within(rows[1]!).getAllByRole('cell')[9]).toHaveTextContent('10.00 USD');
    const sparse = within(rows[2]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    await expect(sparse).toEqual([
      '3001',
      'sparse@example.comCustomer page',
      '—',
      '—',
      '—',
      '—',
      '—',
      '—',
      '—',
      '—',
      '—',
      'View',
    ]);
    await expect(footerTotal(table)).toHaveTextContent(/^10\.00 USD$/);
  },
};

/** No amount anywhere on the page: the footer total is a dash. */
export const NoAmounts: Story = {
  args: { ...Default.args, rows: { status: 'ready', data: NO_AMOUNT_ROWS } },
  play: async ({ canvas }) => {
    await expect(footerTotal(canvas.getByRole('table'))).toHaveTextContent(/^—$/);
  },
};

/** Very long emails, names and ids wrap inside their cells; the View name keeps the email. */
export const LongText: Story = {
  args: { ...Default.args, rows: { status: 'ready', data: LONG_TEXT_ROWS } },
  play: async ({ canvas }) => {
    const email = canvas.getByRole('button', { name: LONG_EMAIL });
    await expect(email).toBeVisible();
    await expect(email.getBoundingClientRect().height).toBeGreaterThan(
      canvas.getByRole('button', { name: 'short@example.com' }).getBoundingClientRect().height,
    );
    await expect(
      canvas.getByRole('button', { name: `View details for ${LONG_EMAIL}` }),
    ).toBeVisible();
    await expect(canvas.getByText('1234567.89 USD')).toBeVisible();
  },
};
