import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { WebhooksView } from '../../src/components/WebhooksView';
import type { WebhookDeliveriesPage } from '../../src/domain/webhooks';
import {
  WEBHOOK_ROWS,
  makeWebhookRows,
  toDelivery,
  toDeliveryDetail,
} from '../../tests/msw/fixtures-webhooks';
import { withRouter } from '../support/withRouter';
import { expectRefreshIgnoredWhileBusy } from '../support/refresh';

const PAGE: WebhookDeliveriesPage = {
  rows: WEBHOOK_ROWS.map(toDelivery),
  total: 12,
  totalPages: 1,
  isTotalCapped: false,
};
const CLOSED = {
  openRow: null,
  detail: { status: 'loading' },
  replay: { status: 'idle' },
} as const;
const FILTERS = { provider: '', outcome: '', event: '', email: '', from: '', to: '' };

const meta = {
  title: 'Webhooks/WebhooksView',
  component: WebhooksView,
  decorators: [withRouter],
  args: {
    list: { status: 'ready', data: PAGE },
    query: { page: 1, pageSize: 50, sort: { key: 'received_at', direction: 'desc' } },
    filters: FILTERS,
    totalPages: 1,
    drawer: CLOSED,
    canReplay: true,
    onFiltersChange: fn(),
    onClearAll: fn(),
    onPageChange: fn(),
    onPageSizeChange: fn(),
    onRefresh: fn(),
    onOpenDelivery: fn(),
    onCloseDelivery: fn(),
    onReplay: fn(),
  },
} satisfies Meta<typeof WebhooksView>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Every outcome, both providers, newest first: received time (UTC, to the second), provider, event,
 * outcome badge, HTTP status, email and the error or reason; the filters and View.
 */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    const table = canvas.getByRole('table', { name: 'Webhook deliveries' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Received (UTC)',
      'Provider',
      'Event',
      'Outcome',
      'HTTP',
      'Email',
      'Error or reason',
      'Actions',
    ]);
    const first = within(table).getAllByRole('row')[1]!;
    await expect(first).toHaveTextContent('2026-11-20 11:59:00');
    await expect(first).toHaveTextContent('subscription_created');
    await expect(first).toHaveTextContent('Applied');
    const refused = within(table).getByRole('row', { name: /Refused \(signature\)/ });
    await expect(refused).toHaveTextContent('401');
    await expect(refused).toHaveTextContent('Invalid or missing X-Signature');
    await expect(within(table).getByRole('row', { name: /license_key_created/ })).toHaveTextContent(
      'license keys do not change subscriptions or forum access',
    );
    await userEvent.selectOptions(canvas.getByLabelText('Outcome'), 'failed');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, outcome: 'failed' });
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'ClickBank');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...FILTERS,
      provider: 'clickbank',
    });
    await userEvent.click(within(first).getByRole('button', { name: /View delivery 112/ }));
    await expect(args.onOpenDelivery).toHaveBeenCalledWith(PAGE.rows[0]);
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

/** A failed load with Retry. */
export const Error: Story = {
  args: {
    list: { status: 'error', message: 'Failed to load webhook deliveries' },
    totalPages: null,
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Failed to load webhook deliveries');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Nothing matches the filters: 'No webhook deliveries found.', Total 0. */
export const Empty: Story = {
  args: {
    list: { status: 'empty' },
    filters: { ...FILTERS, outcome: 'failed', email: 'nobody@example.com' },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No webhook deliveries found.')).toBeVisible();
    await expect(canvas.getByLabelText('Outcome')).toHaveValue('failed');
    await expect(canvas.getByRole('navigation', { name: 'Webhook pages' })).toHaveTextContent(
      'Total: 0',
    );
  },
};

/** 200 rows on page 3 of a total the server stopped counting: 'Total: 10,000+'. */
export const ManyRows: Story = {
  args: {
    list: {
      status: 'ready',
      data: {
        rows: makeWebhookRows(200).map(toDelivery),
        total: 10_000,
        totalPages: 50,
        isTotalCapped: true,
      },
    },
    query: { page: 3, pageSize: 200, sort: { key: 'received_at', direction: 'desc' } },
    totalPages: 50,
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByLabelText('Rows')).toHaveValue('200');
    const pager = canvas.getByRole('navigation', { name: 'Webhook pages' });
    await expect(pager).toHaveTextContent('Page 3 of 50');
    await expect(pager).toHaveTextContent('Total: 10,000+');
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenLastCalledWith(4);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A row's delivery open in the drawer, over the list, for an admin. */
export const DeliveryOpen: Story = {
  args: {
    drawer: {
      openRow: PAGE.rows[7]!,
      detail: { status: 'ready', data: toDeliveryDetail(WEBHOOK_ROWS[7]!) },
      replay: { status: 'idle' },
    },
  },
  play: async ({ args }) => {
    const drawer = await within(document.body).findByRole('dialog', { name: 'Webhook delivery' });
    await expect(drawer).toHaveTextContent('connection terminated unexpectedly');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Replay' }));
    await expect(args.onReplay).toHaveBeenCalledOnce();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await expect(args.onCloseDelivery).toHaveBeenCalledOnce();
  },
};
