import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import {
  CustomerForum,
  CustomerMoney,
  CustomerOrders,
  CustomerSubscriptions,
} from '../../src/components/CustomerView';
import { CUSTOMER } from '../../tests/msw/fixtures-customers';

/**
 * The customer page's sections on their own (docs/api.md "Customers"): forum, money,
 * subscriptions and ClickBank orders, each in the states a customer can put it in.
 */
const meta = {
  title: 'Customers/CustomerSections',
  component: CustomerForum,
  args: { forum: CUSTOMER.forum, onRetryJob: fn() },
} satisfies Meta<typeof CustomerForum>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Forum: a member with a failed grant (its error, Retry now) and a sent invitation. */
export const ForumFailedJob: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Member')).toBeVisible();
    await expect(canvas.getByText('Discourse 502: Bad Gateway')).toBeVisible();
    await expect(canvas.getAllByRole('row')).toHaveLength(3);
    await userEvent.click(canvas.getByRole('button', { name: /^Retry now\W*grant job 41$/ }));
    await expect(args.onRetryJob).toHaveBeenCalledWith(41);
  },
};

/** Forum: no jobs and no access; pending invites are listed. */
export const ForumInvitedNoJobs: Story = {
  args: {
    forum: {
      state: 'invited',
      username: null,
      jobs: [],
      invites: [{ createdAt: '2026-11-19T09:00:00.000Z', expiresAt: null, status: 'pending' }],
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Invited')).toBeVisible();
    await expect(canvas.getByText('No forum jobs for this email.')).toBeVisible();
    await expect(canvas.getByText('pending, sent 2026-11-19 09:00')).toBeVisible();
  },
};

/** Forum: a job still waiting its turn and one sent: nothing to retry. */
export const ForumPendingAndSent: Story = {
  args: {
    forum: {
      ...CUSTOMER.forum,
      state: 'unknown',
      jobs: [
        { ...CUSTOMER.forum.jobs[0]!, status: 'pending', attempts: 2, lastError: null },
        CUSTOMER.forum.jobs[1]!,
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Unknown')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: /Retry now/ })).toBeNull();
  },
};

/** Money: payments in USD and EUR, a refund and a chargeback signed, the total in USD. */
export const MoneyMixedCurrencies: Story = {
  render: () => (
    <CustomerMoney
      payments={[
        ...CUSTOMER.payments,
        {
          at: '2026-11-01T10:00:00.000Z',
          kind: 'chargeback',
          provider: 'clickbank',
          amountCents: 2900,
          currency: 'GBP',
          reference: 'CB9Z',
          subscriptionId: null,
        },
      ]}
      lifetimeRevenueCents={CUSTOMER.customer.lifetimeRevenueCents}
      currency="USD"
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/Lifetime revenue: \$145\.93/)).toBeVisible();
    await expect(canvas.getByText('−€47.00')).toBeVisible();
    await expect(canvas.getByText('−£29.00')).toBeVisible();
    await expect(canvas.getByText('Chargeback')).toBeVisible();
  },
};

/** Money: nothing paid yet. */
export const MoneyNone: Story = {
  render: () => <CustomerMoney payments={[]} lifetimeRevenueCents={0} currency="EUR" />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/Lifetime revenue: €0\.00/)).toBeVisible();
    await expect(canvas.getByText('No payments.')).toBeVisible();
  },
};

/** Subscriptions on both providers; View names the subscription it opens. */
export const Subscriptions: Story = {
  render: () => (
    <CustomerSubscriptions subscriptions={CUSTOMER.subscriptions} onOpenSubscription={fn()} />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'View subscription 1' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'View subscription JD7Q2M9P' })).toBeVisible();
  },
};

/** No subscription, and no ClickBank order (that section is left out). */
export const NothingYet: Story = {
  render: () => (
    <div>
      <CustomerSubscriptions subscriptions={[]} onOpenSubscription={fn()} />
      <CustomerOrders orders={[]} />
    </div>
  ),
  play: async ({ canvasElement, canvas }) => {
    await expect(canvas.getByText('No subscriptions.')).toBeVisible();
    await expect(
      within(canvasElement).queryByRole('region', { name: 'ClickBank orders' }),
    ).toBeNull();
  },
};

/** ClickBank orders: the sale and its refund under one receipt, with the affiliate. */
export const Orders: Story = {
  render: () => <CustomerOrders orders={CUSTOMER.orders} />,
  play: async ({ canvas }) => {
    const orders = canvas.getByRole('region', { name: 'ClickBank orders' });
    await expect(within(orders).getAllByRole('row')).toHaveLength(3);
    await expect(orders).toHaveTextContent('RFND');
    await expect(orders).toHaveTextContent('topaffiliate');
  },
};
