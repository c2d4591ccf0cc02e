import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { SubscriptionsScreen } from '../../src/screens/SubscriptionsScreen';
import {
  clickbankOrdersHandlers,
  detailHandlers,
  subscriptionsHandlers,
} from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

/**
 * The Subscriptions screen (§2 Subscriptions, §4, §8) against mocked GET /subscriptions,
 * GET /subscriptions/detail and GET /clickbank/orders: the list's states and the detail drawer.
 */
const meta = {
  title: 'Screens/Subscriptions',
  component: SubscriptionsScreen,
  decorators: [withScreen],
  parameters: {
    screen: { route: '/subscriptions' },
    msw: {
      handlers: [subscriptionsHandlers.list(), detailHandlers.byKey(), clickbankOrdersHandlers.list()],
    },
  },
} satisfies Meta<typeof SubscriptionsScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The fixture rows with the hint above them. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
    await expect(canvas.getByText('Click an email to view details.')).toBeVisible();
    await expect(await canvas.findByText('johndoe@example.com')).toBeVisible();
    await expect(canvas.getByText('grace@example.com')).toBeVisible();
  },
};

/** The request never answers. */
export const Loading: Story = {
  parameters: { msw: { handlers: [subscriptionsHandlers.loading()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status')).toBeInTheDocument();
    await expect(canvas.queryByText('johndoe@example.com')).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** A 500 with a message: '{status} {message}' (§8). */
export const Error: Story = {
  parameters: { msw: { handlers: [subscriptionsHandlers.error(500, 'Subscriptions query failed')] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/500 Subscriptions query failed/)).toBeVisible();
  },
};

/** No rows. */
export const Empty: Story = {
  parameters: { msw: { handlers: [subscriptionsHandlers.empty()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('button', { name: /refresh/i })).toBeVisible();
    await expect(canvas.queryByText('johndoe@example.com')).toBeNull();
  },
};

/** USD, EUR and GBP on one page: the footer's total reads '— Mixed —'. */
export const MixedCurrency: Story = {
  parameters: { msw: { handlers: [subscriptionsHandlers.mixedCurrency()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('— Mixed —')).toBeVisible();
  },
};

/** Clicking a LemonSqueezy row's email opens the drawer with its details. */
export const OpenLemonSqueezyDetail: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'johndoe@example.com' }));
    const body = within(document.body);
    const drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    await expect(await within(drawer).findAllByText('johndoe@example.com')).not.toHaveLength(0);
  },
};

/** Clicking a ClickBank row's email also loads the customer's orders. */
export const OpenClickBankDetail: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'grace@example.com' }));
    const body = within(document.body);
    const drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    await expect(await within(drawer).findByText('Latest order')).toBeVisible();
    await expect(within(drawer).getAllByText('Previous orders')[0]).toBeVisible();
  },
};
