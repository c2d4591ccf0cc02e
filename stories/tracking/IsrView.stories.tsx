import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { IsrView } from '../../src/components/IsrView';
import {
  isrPresetRange,
  isrProviderSplit,
  pivotIsrDaily,
  type IsrDailyRow,
  type IsrEvent,
  type IsrEventsFilters,
  type IsrSummary,
} from '../../src/domain/isr';
import {
  ISR_AFFILIATES_WIRE,
  makeIsrDailyWire,
  makeIsrEvents,
  makeIsrSummaryWire,
  type IsrEventWire,
} from '../../tests/msw/fixtures-metrics';
import { withRouter } from '../support/withRouter';

const NOW = new Date('2026-11-20T12:00:00Z');

const toEvent = (e: IsrEventWire): IsrEvent => ({
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
});
/** The first page (50) of the 120 fixture events, as the domain holds them. */
const PAGE1: IsrEvent[] = makeIsrEvents(50).map(toEvent);
const ROWS14: IsrDailyRow[] = makeIsrDailyWire(14).map((r) => ({
  day: r.day,
  source: r.source,
  events: r.events,
  amountCents: r.amount_cents,
}));
const AFFILIATES = ISR_AFFILIATES_WIRE.map((a) => ({
  affiliate: a.affiliate,
  amountCents: a.amount_cents,
  events: a.events,
}));
const S14 = makeIsrSummaryWire(14);
const SUMMARY: IsrSummary = {
  totalAmountCents: S14.total_amount_cents,
  totalEvents: S14.total_events,
  clickbankAmountCents: S14.clickbank_amount_cents,
  clickbankEvents: S14.clickbank_events,
  lemonsqueezyAmountCents: S14.lemonsqueezy_amount_cents,
  lemonsqueezyEvents: S14.lemonsqueezy_events,
};
const FILTERS: IsrEventsFilters = {
  q: '',
  source: '',
  affiliate: '',
  subid: '',
  receipt: '',
  orderId: '',
};
const LONG_REFERRER = `https://reviews.example.com/${'best-membership-sites-2026/'.repeat(6)}mg-review?utm_source=aff&utm_medium=blog&utm_campaign=black-friday-2026&utm_content=sidebar-banner-300x250`;

const usd2 = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
  }).format(cents / 100);

/** Drops focus and scrolls back to the top so the screenshot is a still state. */
function blur(): void {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  window.scrollTo(0, 0);
}

/**
 * The Integrated Tracking screen's pure view (§2): range controls, four cards, four charts at a
 * fixed width, the search form (Search, Export CSV) and the events table with its pager.
 */
const meta = {
  title: 'Tracking/IsrView',
  component: IsrView,
  decorators: [withRouter],
  args: {
    range: isrPresetRange(14, NOW),
    activeDays: 14,
    isRefreshing: false,
    summary: { status: 'ready', data: SUMMARY },
    daily: { status: 'ready', data: pivotIsrDaily(ROWS14) },
    affiliates: { status: 'ready', data: AFFILIATES },
    split: { status: 'ready', data: isrProviderSplit(ROWS14) },
    filters: FILTERS,
    events: { status: 'ready', data: PAGE1 },
    page: 1,
    totalPages: 3,
    total: 120,
    isTotalCapped: false,
    isEventsRefreshing: false,
    chartWidth: 940,
    onPresetChange: fn(),
    onRangeChange: fn(),
    onRefresh: fn(),
    onFiltersChange: fn(),
    onSearch: fn(),
    onExportCsv: fn(),
    onPageChange: fn(),
  },
} satisfies Meta<typeof IsrView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Default 14 days: title, 14D pressed, the cards, four charts, a page of events and the pager. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    await expect(
      canvas.getByRole('heading', { level: 1, name: 'Integrated Tracking (First-Party)' }),
    ).toBeVisible();
    for (const name of ['7D', '14D', '30D'])
      await expect(canvas.getByRole('button', { name })).toHaveAttribute(
        'aria-pressed',
        String(name === '14D'),
      );
    await expect(canvas.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    await expect(canvas.getByRole('region', { name: 'Total revenue' })).toHaveTextContent(
      `${usd2(SUMMARY.totalAmountCents!)}${SUMMARY.totalEvents} events`,
    );
    for (const name of [
      'Daily revenue by provider',
      'Daily events count',
      'Top affiliates by revenue',
      'Provider split by revenue',
    ])
      await expect(canvas.getByRole('region', { name })).toBeVisible();
    const table = canvas.getByRole('table', { name: 'ISR events' });
    // 50 rows on this page (virtualised: only a window is in the DOM); 120 in all, + the header.
    await expect(table).toHaveAttribute('aria-rowcount', '121');
    const rows = within(table).getAllByRole('row');
    await expect(rows[1]).toHaveAttribute('aria-rowindex', '2');
    await expect(rows[1]).toHaveTextContent(PAGE1[0]!.receipt!);
    await expect(canvas.getByText('Total: 120 events')).toBeVisible();
    await expect(canvas.getByText('Page 1 / 3')).toBeVisible();

    await userEvent.click(canvas.getByRole('button', { name: '7D' }));
    await expect(args.onPresetChange).toHaveBeenCalledWith(7);
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).toHaveBeenCalledWith(2);
    blur();
  },
};

/** The search form reports edits; Search applies it (§4) and Export CSV exports the page (§9). */
export const SearchAndExport: Story = {
  args: { filters: { ...FILTERS, q: 'RCPT' } },
  play: async ({ canvas, args }) => {
    const form = canvas.getByRole('search', { name: 'Search events' });
    const q = within(form).getByLabelText('Search (receipt, order, affiliate, email…)');
    await expect(q).toHaveValue('RCPT');
    await userEvent.type(q, '9');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, q: 'RCPT9' });
    await userEvent.selectOptions(within(form).getByLabelText('Source'), 'any');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...FILTERS,
      q: 'RCPT',
      source: 'any',
    });
    await expect(args.onSearch).not.toHaveBeenCalled();
    await userEvent.click(within(form).getByRole('button', { name: 'Search' }));
    await expect(args.onSearch).toHaveBeenCalledOnce();
    const exportCsv = within(form).getByRole('button', { name: 'Export CSV' });
    await expect(exportCsv).not.toHaveAttribute('aria-disabled');
    await userEvent.click(exportCsv);
    await expect(args.onExportCsv).toHaveBeenCalledOnce();
    blur();
  },
};

/** Loads under way: Refresh reads 'Refreshing…' and is disabled (§2). */
export const Refreshing: Story = {
  args: { isRefreshing: true, isEventsRefreshing: true },
  play: async ({ canvas, args }) => {
    const refresh = canvas.getByRole('button', { name: 'Refreshing…' });
    await expect(refresh).toBeDisabled();
    await expect(canvas.queryByRole('button', { name: 'Refresh' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Next' }));
    await expect(args.onPageChange).not.toHaveBeenCalled();
    blur();
  },
};

/** No event matched: 'No events', 'Total: 0 events', and Export CSV marked unavailable. */
export const NoEvents: Story = {
  args: { events: { status: 'empty' }, total: 0, totalPages: 1 },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No events')).toBeVisible();
    await expect(canvas.getByText('Total: 0 events')).toBeVisible();
    await expect(canvas.getByText('Page 1 / 1')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Export CSV' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

/** A range without any event: the cards show a dash and the charts their empty message (§2). */
export const SummaryNoData: Story = {
  args: {
    summary: {
      status: 'ready',
      data: {
        totalAmountCents: 0,
        totalEvents: 0,
        clickbankAmountCents: 0,
        clickbankEvents: 0,
        lemonsqueezyAmountCents: 0,
        lemonsqueezyEvents: 0,
      },
    },
    daily: { status: 'ready', data: pivotIsrDaily([]) },
    affiliates: { status: 'ready', data: [] },
    split: { status: 'ready', data: [] },
    events: { status: 'empty' },
    total: 0,
    totalPages: 1,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Total revenue' })).toHaveTextContent(
      'Total revenue—',
    );
    await expect(canvas.getByRole('region', { name: 'Avg order (approx)' })).toHaveTextContent('—');
    await expect(canvas.getAllByText('No data for this period.')).toHaveLength(4);
    await expect(canvas.getByText('No events')).toBeVisible();
  },
};

/** A very long referrer is cut in its cell; the full address is its title and link name. */
export const LongReferrer: Story = {
  args: {
    events: { status: 'ready', data: [{ ...PAGE1[0]!, referrer: LONG_REFERRER }, PAGE1[1]!] },
    total: 2,
    totalPages: 1,
  },
  play: async ({ canvas }) => {
    const link = canvas.getByRole('link', { name: LONG_REFERRER });
    await expect(link.parentElement).toHaveAttribute('title', LONG_REFERRER);
    const table = canvas.getByRole('table', { name: 'ISR events' });
    // The table keeps to the view's width: the address does not widen the page.
    await expect(table.getBoundingClientRect().width).toBeLessThanOrEqual(
      canvas
        .getByRole('region', { name: 'Integrated Tracking (First-Party)' })
        .getBoundingClientRect().width + 1,
    );
    await expect(canvas.getByText('Total: 2 events')).toBeVisible();
  },
};
