import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { IsrEventsTable } from '../../src/components/IsrEventsTable';
import type { IsrEvent } from '../../src/domain/isr';
import { makeIsrEvents } from '../../tests/msw/fixtures-metrics';
import { withRouter } from '../support/withRouter';

const EVENTS: IsrEvent[] = makeIsrEvents(8).map((e) => ({
  id: String(e.id),
  createdAt: e.created_at,
  source: e.source,
  orderId: e.order_id,
  receipt: e.receipt,
  productId: e.product_id,
  amountCents: e.amount_cents,
  currency: e.currency,
  affiliate: e.affiliate,
  subid: e.subid,
  campaign: e.campaign,
  customerEmail: e.customer_email,
  referrer: e.referrer,
}));

/** The ISR events table (§2): eight columns, 'No events', 'Total: N events' (or '1,000+'), 'Page x / y'. */
const meta = {
  title: 'Tracking/IsrEventsTable',
  component: IsrEventsTable,
  decorators: [withRouter],
  args: {
    rows: { status: 'ready', data: EVENTS },
    page: 1,
    totalPages: 3,
    total: 120,
    onPageChange: fn(),
  },
} satisfies Meta<typeof IsrEventsTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A page: the §2 columns in order, money with two decimals, the pager. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'ISR events' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'When',
      'Source',
      'Receipt / Order',
      'Amount',
      'Affiliate / SubID',
      'Campaign',
      'Email',
      'Referrer',
    ]);
    await expect(within(table).getByText('2026-11-20 09:00')).toBeVisible();
    await expect(within(table).getAllByText('$47.00').length).toBeGreaterThan(0);
    await expect(canvas.getByText('Total: 120 events')).toBeVisible();
    await expect(canvas.getByText('Page 1 / 3')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Prev' }));
    await expect(args.onPageChange).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2);
  },
};

/** A search the server stopped counting at its cap (docs/api.md totalCapped) reads '1,000+'. */
export const CappedTotal: Story = {
  args: { total: 1000, totalPages: 20, isTotalCapped: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Total: 1,000+ events')).toBeVisible();
    await expect(canvas.getByText('Page 1 / 20')).toBeVisible();
  },
};

/** The referrer is cut; its full text is the hover title and shows in place while focused. */
export const ReferrerOnFocus: Story = {
  play: async ({ canvas }) => {
    const full = EVENTS[0]!.referrer!;
    const link = canvas.getByRole('link', { name: full });
    const cell = link.parentElement!;
    await expect(cell).toHaveAttribute('title', full);
    const collapsed = cell.getBoundingClientRect().height;
    link.focus();
    await expect(link).toHaveFocus();
    await expect(cell.getBoundingClientRect().height).toBeGreaterThan(collapsed);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  },
};

/** A refund reads negative. */
export const Refund: Story = {
  args: {
    rows: { status: 'ready', data: [{ ...EVENTS[0]!, amountCents: -4700 }] },
    total: 1,
    totalPages: 1,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('-$47.00')).toBeVisible();
    await expect(canvas.getByText('Page 1 / 1')).toBeVisible();
  },
};

export const Empty: Story = {
  args: { rows: { status: 'empty' }, total: 0, totalPages: 1 },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No events')).toBeVisible();
    await expect(canvas.getByText('Total: 0 events')).toBeVisible();
  },
};

/** §8: the ISR events page shows no error messages: an error reads as 'No events'. */
export const ErrorReadsAsEmpty: Story = {
  args: { rows: { status: 'error', message: 'boom' }, total: null, totalPages: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No events')).toBeVisible();
    await expect(canvas.queryByText('boom')).toBeNull();
  },
};

export const Loading: Story = {
  args: { rows: { status: 'loading' }, total: null, totalPages: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Loading…')).toBeVisible();
    await expect(canvas.getByText('Page 1 / …')).toBeVisible();
  },
};

/** A javascript: referrer is shown as text, never a link. */
export const UnsafeReferrer: Story = {
  args: { rows: { status: 'ready', data: [{ ...EVENTS[0]!, referrer: 'javascript:alert(1)' }] } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('javascript:alert(1)')).toBeVisible();
    // The only link is the buyer's customer page; the referrer is text.
    await expect(canvas.queryByRole('link', { name: /javascript/ })).toBeNull();
    await expect(canvas.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/customers/buyer1%40example.com',
    ]);
  },
};
