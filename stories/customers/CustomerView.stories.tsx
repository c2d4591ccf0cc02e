import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { CustomerView } from '../../src/components/CustomerView';
import { FIXTURE_DATE } from '../../tests/msw/view-users';
import { CUSTOMER, NEW_CUSTOMER, TIMELINE_ITEMS } from '../../tests/msw/fixtures-customers';
import { withRouter } from '../support/withRouter';

const CLOSED_DRAWER = {
  openRow: null,
  detail: { status: 'loading' },
  orders: { status: 'empty' },
  audit: { rows: { status: 'empty' }, allRowsPath: '/audit' },
} as const;

const meta = {
  title: 'Customers/CustomerView',
  component: CustomerView,
  decorators: [withRouter],
  parameters: { layout: 'padded' },
  args: {
    email: CUSTOMER.customer.email,
    record: { status: 'ready', data: CUSTOMER },
    onRetry: fn(),
    timeline: {
      entries: { status: 'ready', data: { items: TIMELINE_ITEMS, hasMore: false } },
      kinds: [],
      onKindsChange: fn(),
      onLoadMore: fn(),
      onRetry: fn(),
    },
    now: FIXTURE_DATE,
    onAccessAction: fn(),
    onDismissActionResult: fn(),
    onRetryJob: fn(),
    drawer: CLOSED_DRAWER,
    onOpenSubscription: fn(),
    onCloseSubscription: fn(),
  },
} satisfies Meta<typeof CustomerView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A section of the page by its heading (each is a region named by its h2). */
function section(canvas: HTMLElement, name: string) {
  return within(canvas).getByRole('region', { name });
}

/**
 * John Doe on both providers: the header with his MG status and the access menu in place, his
 * LemonSqueezy and ClickBank subscriptions, money in USD and EUR with a refund (minus sign) and
 * the lifetime total in USD, the forum with a failed job, his ClickBank orders, and the timeline.
 */
export const Ready: Story = {
  play: async ({ canvasElement, canvas, args }) => {
    await expect(
      canvas.getByRole('heading', { level: 1, name: 'johndoe@example.com' }),
    ).toBeVisible();
    await expect(canvas.getByText('John Doe')).toBeVisible();
    await expect(canvas.getByText('lemonsqueezy, clickbank')).toBeVisible();
    const subs = section(canvasElement, 'Subscriptions');
    await expect(within(subs).getAllByRole('row')).toHaveLength(3);
    await expect(subs).toHaveTextContent('9.99 USD');
    await expect(subs).toHaveTextContent('47.00 EUR');
    await userEvent.click(within(subs).getByRole('button', { name: 'View subscription 1' }));
    await expect(args.onOpenSubscription).toHaveBeenCalledWith(CUSTOMER.subscriptions[0]);
    const money = section(canvasElement, 'Money');
    await expect(money).toHaveTextContent('Lifetime revenue: $145.93');
    await expect(money).toHaveTextContent('−€47.00');
    const forum = section(canvasElement, 'Forum');
    await expect(forum).toHaveTextContent('Member');
    await expect(forum).toHaveTextContent('Discourse 502: Bad Gateway');
    await userEvent.click(
      within(forum).getByRole('button', { name: /^Retry now\W*grant job 41$/ }),
    );
    await expect(args.onRetryJob).toHaveBeenCalledWith(41);
    await expect(section(canvasElement, 'ClickBank orders')).toHaveTextContent('RFND');
    await expect(within(section(canvasElement, 'Timeline')).getAllByRole('listitem')).toHaveLength(
      TIMELINE_ITEMS.length,
    );
    await expect(
      canvas.getByRole('button', { name: 'Edit access for johndoe@example.com' }),
    ).toBeEnabled();
  },
};

/** While the record loads: the email from the address and 'Loading customer…'. */
export const Loading: Story = {
  args: { record: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('heading', { level: 1, name: 'johndoe@example.com' }),
    ).toBeVisible();
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading customer…');
    await expect(canvas.getByRole('link', { name: 'Back to Users' })).toBeVisible();
  },
};

/** An email the server does not know: the message, Retry and the way back to Users. */
export const NotFound: Story = {
  args: {
    email: 'nobody@example.com',
    record: { status: 'error', message: 'No customer with this email.' },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No customer with this email.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** A customer with nothing yet: every section says so, and the timeline is empty. */
export const NewCustomer: Story = {
  args: {
    email: NEW_CUSTOMER.customer.email,
    record: { status: 'ready', data: NEW_CUSTOMER },
    timeline: { ...meta.args.timeline, entries: { status: 'empty' } },
  },
  play: async ({ canvasElement, canvas }) => {
    await expect(section(canvasElement, 'Subscriptions')).toHaveTextContent('No subscriptions.');
    await expect(section(canvasElement, 'Money')).toHaveTextContent('No payments.');
    await expect(section(canvasElement, 'Forum')).toHaveTextContent('No access');
    await expect(canvas.queryByRole('region', { name: 'ClickBank orders' })).toBeNull();
    await expect(section(canvasElement, 'Timeline')).toHaveTextContent('Nothing has happened yet.');
  },
};

/** A viewer: the access menu and 'Retry now' are disabled, and the page says why. */
export const Viewer: Story = {
  args: {
    actionsBlockedReason: 'Your role (viewer) may not run access actions; support and up may.',
    retryBlockedReason: 'Your role (viewer) may not retry forum jobs; support and up may.',
  },
  play: async ({ canvasElement, canvas, args }) => {
    await expect(
      canvas.getByRole('button', { name: 'Edit access for johndoe@example.com' }),
    ).toHaveAttribute('aria-disabled', 'true');
    const forum = section(canvasElement, 'Forum');
    const retry = within(forum).getByRole('button', { name: /^Retry now\W*grant job 41$/ });
    await expect(retry).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(retry);
    await expect(args.onRetryJob).not.toHaveBeenCalled();
    await expect(forum).toHaveTextContent('may not retry forum jobs');
  },
};

/** After an access action: its result under the header, dismissible. */
export const ActionResult: Story = {
  args: { actionResult: { tone: 'success', message: 'OK (Discourse updated)' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('OK (Discourse updated)')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Dismiss' }));
    await expect(args.onDismissActionResult).toHaveBeenCalledOnce();
  },
};

/** A retry running: its button reads 'Retrying…' and does not fire again. */
export const RetryingForumJob: Story = {
  args: { pendingJobIds: new Set([41]) },
  play: async ({ canvasElement, args }) => {
    const retry = within(section(canvasElement, 'Forum')).getByRole('button', {
      name: /^Retrying…\W*grant job 41$/,
    });
    await expect(retry).toHaveTextContent('Retrying…');
    await userEvent.click(retry);
    await expect(args.onRetryJob).not.toHaveBeenCalled();
  },
};

/** A long name, a long email and a long forum error wrap instead of overflowing. */
export const LongText: Story = {
  args: {
    email:
      'maximiliana.alexandrina.featherstonehaugh-cholmondeley@a-very-long-subdomain.example.org',
    record: {
      status: 'ready',
      data: {
        ...CUSTOMER,
        customer: {
          ...CUSTOMER.customer,
          email:
            'maximiliana.alexandrina.featherstonehaugh-cholmondeley@a-very-long-subdomain.example.org',
          name: 'Maximiliana Alexandrina Featherstonehaugh-Cholmondeley of Upper Wallop',
        },
        forum: {
          ...CUSTOMER.forum,
          jobs: [
            {
              ...CUSTOMER.forum.jobs[0]!,
              lastError:
                'Discourse 422: {"errors":["Username must be unique; Email has already been taken by another account that was merged"]}',
            },
          ],
        },
      },
    },
  },
  play: async ({ canvasElement }) => {
    const page = canvasElement.firstElementChild as HTMLElement;
    await expect(page.scrollWidth).toBeLessThanOrEqual(page.clientWidth + 1);
  },
};
