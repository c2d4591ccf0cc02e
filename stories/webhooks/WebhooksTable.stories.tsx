import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { WebhooksTable } from '../../src/components/WebhooksTable';
import { WEBHOOK_ROWS, makeWebhookRows, toDelivery } from '../../tests/msw/fixtures-webhooks';
import { withRouter } from '../support/withRouter';

const DELIVERIES = WEBHOOK_ROWS.map(toDelivery);
const MANY = makeWebhookRows(300).map(toDelivery);

const COLUMN_HEADERS = [
  'Received (UTC)',
  'Provider',
  'Event',
  'Outcome',
  'HTTP',
  'Email',
  'Error or reason',
  'Actions',
];

/** The webhook inbox table: every outcome, loading, error with Retry, empty with Refresh. */
const meta = {
  title: 'Webhooks/WebhooksTable',
  component: WebhooksTable,
  decorators: [withRouter],
  args: {
    rows: { status: 'ready', data: DELIVERIES },
    rowCount: DELIVERIES.length,
    firstRowIndex: 0,
    onRetry: fn(),
    onRefresh: fn(),
    onOpenDelivery: fn(),
  },
} satisfies Meta<typeof WebhooksTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Twelve deliveries, newest first: every outcome badge, both providers, emails linking to their customer; View opens one. */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'Webhook deliveries' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(COLUMN_HEADERS);
    await expect(within(table).getAllByRole('row')).toHaveLength(DELIVERIES.length + 1);
    for (const label of ['Applied', 'Duplicate', 'Ignored', 'Test', 'Invalid', 'Failed']) {
      await expect(within(table).getAllByText(label).length).toBeGreaterThan(0);
    }
    await expect(within(table).getByText('Refused (signature)')).toBeVisible();
    const first = DELIVERIES[0]!;
    // Each email leads to its customer's page.
    await expect(within(table).getAllByRole('link', { name: first.email! })[0]).toHaveAttribute(
      'href',
      expect.stringMatching(/\/customers\/[^/]+%40/),
    );
    await userEvent.click(
      within(table).getByRole('button', { name: `View delivery ${first.id} (${first.event})` }),
    );
    await expect(args.onOpenDelivery).toHaveBeenCalledWith(first);
  },
};

/** Missing fields: no event, no email and no HTTP status show a dash; the View name says "no event". */
export const MissingFields: Story = {
  args: {
    rows: {
      status: 'ready',
      data: [{ ...DELIVERIES[5]!, receivedAt: null, httpStatus: 0, error: null }],
    },
    rowCount: 1,
  },
  play: async ({ canvas }) => {
    const row = canvas.getAllByRole('row')[1]!;
    await expect(within(row).getAllByText('—').length).toBeGreaterThanOrEqual(5);
    await expect(
      within(row).getByRole('button', { name: `View delivery ${DELIVERIES[5]!.id} (no event)` }),
    ).toBeVisible();
  },
};

/** A long reason wraps in its cell; a long email ends in an ellipsis. */
export const LongText: Story = {
  args: {
    rows: {
      status: 'ready',
      data: [
        {
          ...DELIVERIES[7]!,
          email: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
          error:
            'Error: connection terminated unexpectedly while the subscription row was locked by another transaction that held it for more than thirty seconds',
        },
      ],
    },
    rowCount: 1,
  },
  play: async ({ canvas }) => {
    const row = canvas.getAllByRole('row')[1]!;
    await expect(row).toHaveTextContent(/held it for more than thirty seconds/);
    const email = within(row).getByRole('link', {
      name: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
    });
    await expect(email).toHaveAttribute(
      'title',
      'maximiliane.fitzgerald-montgomery@customer-success.example.com',
    );
  },
};

/** Loading the first page. */
export const Loading: Story = {
  args: { rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Loading…')).toBeVisible();
  },
};

/** The page failed: the message and Retry. */
export const Error: Story = {
  args: { rows: { status: 'error', message: 'Internal server error' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText(/Internal server error/)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** No delivery matches: the message and Refresh. */
export const Empty: Story = {
  args: { rows: { status: 'empty' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No webhook deliveries found.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
  },
};

/** A new page loads while the rows stay: the table is busy. */
export const Refreshing: Story = {
  args: { isRefreshing: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('table', { name: 'Webhook deliveries' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};

/** Keyboard: Tab reaches a row's View and Enter opens that delivery. */
export const Keyboard: Story = {
  args: { rows: { status: 'ready', data: DELIVERIES.slice(0, 2) }, rowCount: 2 },
  play: async ({ canvas, args }) => {
    const view = canvas.getAllByRole('button', { name: /^View delivery/ })[0]!;
    view.focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onOpenDelivery).toHaveBeenCalledWith(DELIVERIES[0]);
    view.blur();
  },
};

/** 300 rows on one page: only the rows in view are rendered, the row count stays whole. */
export const LargePage: Story = {
  args: { rows: { status: 'ready', data: MANY }, rowCount: MANY.length, virtualizeAboveRows: 100 },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Webhook deliveries' });
    await expect(table).toHaveAttribute('aria-rowcount', String(MANY.length + 1));
    const rendered = within(table).getAllByRole('row').length;
    await expect(rendered).toBeLessThan(MANY.length);
  },
};
