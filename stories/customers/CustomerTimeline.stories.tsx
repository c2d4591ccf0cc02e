import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { normaliseTimeline } from '../../src/api/customers';
import { CustomerTimeline } from '../../src/components/CustomerView';
import { TIMELINE_ITEMS, makeTimelineWireItems } from '../../tests/msw/fixtures-customers';

const meta = {
  title: 'Customers/CustomerTimeline',
  component: CustomerTimeline,
  args: {
    entries: { status: 'ready', data: { items: TIMELINE_ITEMS, hasMore: false } },
    kinds: [],
    onKindsChange: fn(),
    onLoadMore: fn(),
    onRetry: fn(),
  },
} satisfies Meta<typeof CustomerTimeline>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * One entry of every kind, newest first: time to the second (UTC), kind, title and who acted;
 * an entry opens to its detail. 'All' is pressed; a kind chip adds that kind.
 */
export const EveryKind: Story = {
  play: async ({ canvas, args }) => {
    const list = canvas.getByRole('list', { name: 'Timeline entries, newest first' });
    const entries = within(list).getAllByRole('listitem');
    await expect(entries).toHaveLength(8);
    await expect(entries[0]).toHaveTextContent('2026-11-20 10:00:00');
    await expect(entries[0]).toHaveTextContent('Access');
    await expect(entries[0]).toHaveTextContent('Access revoked now · by support@example.com');
    await expect(entries[2]).toHaveTextContent('by a webhook');
    await userEvent.click(within(entries[0]!).getByText('Access revoked now'));
    await expect(within(entries[0]!).getByText('revoke_now')).toBeVisible();
    const group = canvas.getByRole('group', { name: 'Show entries of kind' });
    await expect(within(group).getByRole('button', { name: 'All' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(within(group).getByRole('button', { name: 'Forum' }));
    await expect(args.onKindsChange).toHaveBeenLastCalledWith(['forum']);
    await expect(canvas.getByText("The beginning of this customer's history.")).toBeVisible();
  },
};

/** Two kinds chosen: their chips are pressed, 'All' is not; pressing one again drops it. */
export const Filtered: Story = {
  args: {
    kinds: ['webhook', 'access'],
    entries: {
      status: 'ready',
      data: {
        items: TIMELINE_ITEMS.filter((i) => i.kind === 'webhook' || i.kind === 'access'),
        hasMore: false,
      },
    },
  },
  play: async ({ canvas, args }) => {
    const group = canvas.getByRole('group', { name: 'Show entries of kind' });
    await expect(within(group).getByRole('button', { name: 'All' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(within(group).getByRole('button', { name: 'Webhook' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(within(group).getByRole('button', { name: 'Access' }));
    await expect(args.onKindsChange).toHaveBeenLastCalledWith(['webhook']);
    await userEvent.click(within(group).getByRole('button', { name: 'All' }));
    await expect(args.onKindsChange).toHaveBeenLastCalledWith([]);
  },
};

/** The first 50 of a 5,000-entry history: 'Show older' loads the next page. */
export const FirstPageOfMany: Story = {
  args: {
    entries: {
      status: 'ready',
      data: {
        items: normaliseTimeline({ items: makeTimelineWireItems(5000).slice(0, 50) }).items,
        hasMore: true,
      },
    },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getAllByRole('listitem')).toHaveLength(50);
    await expect(canvas.getAllByRole('listitem')[0]).toHaveTextContent('Event 5000');
    await userEvent.click(canvas.getByRole('button', { name: 'Show older' }));
    await expect(args.onLoadMore).toHaveBeenCalledOnce();
  },
};

/** An older page loading: the button says so and does not ask twice. */
export const LoadingOlder: Story = {
  args: { ...FirstPageOfMany.args, isLoadingMore: true },
  play: async ({ canvas, args }) => {
    const more = canvas.getByRole('button', { name: 'Loading older…' });
    await expect(more).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(more);
    await expect(args.onLoadMore).not.toHaveBeenCalled();
  },
};

/** An older page failed: the entries stay, the error is announced, 'Show older' retries. */
export const OlderPageFailed: Story = {
  args: { ...FirstPageOfMany.args, loadMoreError: 'Timeline query failed' },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Timeline query failed');
    await expect(canvas.getAllByRole('listitem')).toHaveLength(50);
    await userEvent.click(canvas.getByRole('button', { name: 'Show older' }));
    await expect(args.onLoadMore).toHaveBeenCalledOnce();
  },
};

/** The first page loading. */
export const Loading: Story = {
  args: { entries: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading timeline…');
  },
};

/** The first page failed: its message and Retry. */
export const Error: Story = {
  args: { entries: { status: 'error', message: 'Failed to load the timeline' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Failed to load the timeline')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};

/** No entry of the chosen kinds. */
export const EmptyFiltered: Story = {
  args: { kinds: ['refund'], entries: { status: 'empty' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No entries of the chosen kinds.')).toBeVisible();
  },
};

/** A customer with no history at all: every kind chosen ('All'), and the page says so. */
export const Empty: Story = {
  args: { entries: { status: 'empty' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Nothing has happened yet.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'All' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(canvas.queryByRole('list')).toBeNull();
  },
};

/**
 * From the keyboard: Tab reaches 'All' and then each kind chip, Enter and Space toggle a chip,
 * and Tab goes on to the newest entry's title, the native disclosure of its detail (the browser
 * opens it on Enter; the play function's simulated keys do not run that default action).
 */
export const Keyboard: Story = {
  play: async ({ canvas, args }) => {
    const group = canvas.getByRole('group', { name: 'Show entries of kind' });
    await userEvent.tab();
    await expect(within(group).getByRole('button', { name: 'All' })).toHaveFocus();
    await userEvent.tab();
    await expect(within(group).getByRole('button', { name: 'Webhook' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onKindsChange).toHaveBeenLastCalledWith(['webhook']);
    await userEvent.tab();
    await expect(within(group).getByRole('button', { name: 'Subscription' })).toHaveFocus();
    await userEvent.keyboard(' ');
    await expect(args.onKindsChange).toHaveBeenLastCalledWith(['subscription']);
    // Past the other six chips to the newest entry's title.
    for (let i = 0; i < 7; i++) await userEvent.tab();
    const list = canvas.getByRole('list', { name: 'Timeline entries, newest first' });
    const newest = within(list).getAllByRole('listitem')[0]!;
    const title = within(newest).getByText('Access revoked now');
    await expect(title.closest('summary')).toHaveFocus();
    await expect(title.closest('details')).not.toHaveAttribute('open');
  },
};
