import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { SubscriptionsScreen } from '../../src/screens/SubscriptionsScreen';
import {
  clickbankOrdersHandlers,
  detailHandlers,
  subscriptionsHandlers,
} from '../../tests/msw/handlers';
import { makeSubscriptionRows } from '../../tests/msw/fixtures';
import { auditHandlers } from '../../tests/msw/handlers-audit';
import { pause, recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

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
      handlers: [
        subscriptionsHandlers.list(),
        detailHandlers.byKey(),
        clickbankOrdersHandlers.list(),
        auditHandlers.list(),
      ],
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
  parameters: {
    msw: { handlers: [subscriptionsHandlers.error(500, 'Subscriptions query failed')] },
  },
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

/**
 * The drawer's Audit section lists the customer's rows (GET /audit?target=<email>&pageSize=20);
 * 'All audit rows' goes to the Audit screen filtered by the customer.
 */
export const OpenDetailAudit: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'johndoe@example.com' }));
    const body = within(document.body);
    const drawer = await body.findByRole('dialog', { name: 'Subscription details' });
    const table = await within(drawer).findByRole('table', { name: 'Audit rows of this customer' });
    await expect(within(table).getAllByRole('row')).toHaveLength(4);
    await expect(table).toHaveTextContent('access.revoke_now');
    await userEvent.click(within(drawer).getByRole('link', { name: 'All audit rows' }));
    await waitFor(() =>
      expect(screenRouter().state.location).toMatchObject({
        pathname: '/audit',
        search: '?target=johndoe%40example.com',
      }),
    );
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

/* ------------------------------------------------------------------------------------------ */
/* The screen's own list logic (§4), proven on the requests it sends                           */
/* ------------------------------------------------------------------------------------------ */

const WAIT = { timeout: 8000 } as const;
const subs = recordRequests('/subscriptions');
const last = () => subs.params().at(-1);
const loaded = async (count: number) =>
  waitFor(() => expect(subs.params()).toHaveLength(count), WAIT);

/** A deep link past the last page (?page=99) lands on the last page, with its pager (§4). */
export const ClampsPage: Story = {
  parameters: {
    screen: { route: '/subscriptions?page=99' },
    msw: { handlers: [subs.handler, subscriptionsHandlers.list(makeSubscriptionRows(120))] },
  },
  beforeEach: () => subs.reset(),
  play: async ({ canvas }) => {
    await loaded(2);
    await expect(subs.params().map((p) => p.page)).toEqual(['99', '3']);
    const pager = await canvas.findByRole('navigation', { name: 'Subscriptions pages' }, WAIT);
    await waitFor(() => expect(pager).toHaveTextContent('Page 3 of 3'), WAIT);
    await expect(screenRouter().state.location.search).toBe('?page=3');
  },
};

/** Typing waits 300 ms; a select applies at once; both go back to page 1; sorting toggles (§2, §4). */
export const FiltersAndSort: Story = {
  parameters: {
    screen: { route: '/subscriptions?page=2' },
    msw: { handlers: [subs.handler, subscriptionsHandlers.list(makeSubscriptionRows(200))] },
  },
  beforeEach: () => subs.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(last()).toMatchObject({ page: '2', sortKey: 'row_id', sortDir: 'desc' });
    await userEvent.type(canvas.getByLabelText('Email'), 'customer01');
    await expect(subs.params()).toHaveLength(1);
    await loaded(2);
    await expect(last()).toMatchObject({ page: '1', email: 'customer01' });
    await userEvent.selectOptions(canvas.getByLabelText('Cadence'), 'monthly');
    await loaded(3);
    await expect(last()).toMatchObject({ page: '1', email: 'customer01', cadence: 'monthly' });

    const header = canvas.getByRole('columnheader', { name: /^Amount/ });
    await userEvent.click(within(header).getByRole('button'));
    await loaded(4);
    await expect(last()).toMatchObject({ sortKey: 'amount', sortDir: 'asc' });
    await userEvent.click(within(header).getByRole('button'));
    await loaded(5);
    await expect(last()).toMatchObject({ sortKey: 'amount', sortDir: 'desc' });

    // Back restores the sort, then the filters, in the inputs too.
    await screenRouter().navigate(-2);
    await waitFor(() => expect(header).not.toHaveAttribute('aria-sort'));
    await expect(canvas.getByLabelText('Cadence')).toHaveValue('monthly');
    await screenRouter().navigate(-1);
    await waitFor(() => expect(canvas.getByLabelText('Cadence')).toHaveValue(''));
    await expect(canvas.getByLabelText('Email')).toHaveValue('customer01');
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(canvas.getByLabelText('Email')).toHaveValue(''));
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/**
 * §4 "reloads on any change of page, size, sort or filters": Email ascending, descending, then
 * ascending again sends three requests, the third too although that page was fetched a moment
 * ago; the cached rows stay on screen while it loads.
 */
export const ResortingReloads: Story = {
  parameters: {
    msw: { handlers: [subs.handler, subscriptionsHandlers.list(makeSubscriptionRows(200))] },
  },
  beforeEach: () => subs.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(last()).toMatchObject({ page: '1', sortKey: 'row_id', sortDir: 'desc' });
    const header = canvas.getByRole('columnheader', { name: /^Email/ });
    await userEvent.click(within(header).getByRole('button'));
    await loaded(2);
    await expect(last()).toMatchObject({ page: '1', sortKey: 'email', sortDir: 'asc' });
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'ascending'), WAIT);
    await userEvent.click(within(header).getByRole('button'));
    await loaded(3);
    await expect(last()).toMatchObject({ page: '1', sortKey: 'email', sortDir: 'desc' });
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'descending'), WAIT);
    await userEvent.click(within(header).getByRole('button'));
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(canvas.queryByRole('status')).toBeNull();
    await loaded(4);
    await expect(last()).toEqual(subs.params()[1]);
    await pause(300);
    await expect(subs.params()).toHaveLength(4);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
