import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, fn, userEvent, within } from 'storybook/test';
import { MetricsView } from '../../src/components/MetricsView';
import type { IsrSummary } from '../../src/domain/isr';
import {
  AMOUNT_SERIES_NAMES,
  DEFAULT_METRICS_FILTERS,
  normaliseMetricsOverview,
  type MetricsFilters,
} from '../../src/domain/metrics';
import { makeIsrSummaryWire, makeMetricsWire } from '../../tests/msw/fixtures-metrics';

const W28 = makeMetricsWire({ days: 28 });
const M28 = normaliseMetricsOverview(W28);
const M14 = normaliseMetricsOverview(makeMetricsWire({ days: 14 }));
const M_NO_AMOUNTS = normaliseMetricsOverview(makeMetricsWire({ amountSeriesName: null }));

/** The §3 ISR summary of the same 28 days, as the domain holds it. */
function isrSummary(days: number): IsrSummary {
  const w = makeIsrSummaryWire(days);
  return {
    totalAmountCents: w.total_amount_cents,
    totalEvents: w.total_events,
    clickbankAmountCents: w.clickbank_amount_cents,
    clickbankEvents: w.clickbank_events,
    lemonsqueezyAmountCents: w.lemonsqueezy_amount_cents,
    lemonsqueezyEvents: w.lemonsqueezy_events,
  };
}
const ISR28 = isrSummary(28);
const EMPTY_ISR: IsrSummary = {
  totalAmountCents: 0,
  totalEvents: 0,
  clickbankAmountCents: 0,
  clickbankEvents: 0,
  lemonsqueezyAmountCents: 0,
  lemonsqueezyEvents: 0,
};

const FILTERS: MetricsFilters = { ...DEFAULT_METRICS_FILTERS };
const CHART_TITLES = [
  'Total subscriptions vs providers (daily)',
  'Total amount vs providers (daily)',
  'Daily trend: New vs Renewals vs Cancellations',
  'New subscriptions by provider (daily)',
  'Active subscriptions by provider',
  'Active subscriptions by plan',
];

const usd0 = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(cents / 100);

/** A card's figure and hint, found by its label (StatCard: h3, value p, hint p). */
function card(canvasElement: HTMLElement, label: string): { value: string; hint: string } {
  const region = within(canvasElement).getByRole('region', { name: label });
  return {
    value: region.querySelector('h3 + p')?.textContent ?? '',
    hint: region.querySelector('h3 + p + p')?.textContent ?? '',
  };
}

/** Drops focus and scrolls back to the top so the screenshot is a still state. */
function blur(): void {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  window.scrollTo(0, 0);
}

/**
 * The Metrics screen's pure view (§2 Metrics): filter row, six cards, the ISR summary panel and
 * the five charts at a fixed chart width. Filter changes go to `onFiltersChange`.
 */
const meta = {
  title: 'Metrics/MetricsView',
  component: MetricsView,
  args: {
    filters: FILTERS,
    range: { from: '2026-10-24', to: '2026-11-20' },
    metrics: { status: 'ready', data: M28 },
    isrSummary: { status: 'ready', data: ISR28 },
    chartWidth: 940,
    onFiltersChange: fn(),
  },
} satisfies Meta<typeof MetricsView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Last 28 days: the six §2 cards with their hints, the ISR panel and every chart. */
export const Default28Days: Story = {
  play: async ({ canvas, canvasElement }) => {
    const t = W28.totals;
    await expect(canvas.getByRole('heading', { level: 1, name: 'Metrics' })).toBeVisible();
    await expect(canvas.getByLabelText('Period')).toHaveValue('28d');
    await expect(card(canvasElement, 'Active')).toEqual({
      value: '812',
      hint: 'Currently active',
    });
    await expect(card(canvasElement, 'New')).toEqual({
      value: String(t.totalNewInRange),
      hint: '2026-10-24 → 2026-11-20',
    });
    await expect(card(canvasElement, 'Renewals').value).toBe(String(t.totalRenewalsInRange));
    await expect(card(canvasElement, 'Cancellations').value).toBe(
      String(t.totalCancellationsInRange),
    );
    await expect(card(canvasElement, 'Churn')).toEqual({
      value: `${(t.churnRate * 100).toFixed(1)}%`,
      hint: 'Cancels ÷ start active',
    });
    await expect(card(canvasElement, 'Churn').value).toMatch(/^\d+\.\d%$/);
    await expect(card(canvasElement, 'Est. Revenue')).toEqual({
      value: usd0(t.estimatedRevenueCents),
      hint: 'New + renewals',
    });
    await expect(card(canvasElement, 'Est. Revenue').value).toMatch(/^\$[\d,]+$/);
    const panel = canvas.getByRole('region', { name: 'ISR summary' });
    await expect(within(panel).getByRole('region', { name: 'Total revenue' })).toHaveTextContent(
      `${ISR28.totalEvents} events`,
    );
    for (const name of CHART_TITLES)
      await expect(canvas.getByRole('region', { name })).toBeVisible();
    await expect(canvas.queryByRole('status')).toBeNull();
  },
};

/** Every filter change reports the whole next filter set; nothing is applied locally. */
export const FilterChanges: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.selectOptions(canvas.getByLabelText('Period'), '90d');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, period: '90d' });
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'clickbank');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...FILTERS,
      provider: 'clickbank',
    });
    await userEvent.selectOptions(canvas.getByLabelText('Status'), 'cancelled');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...FILTERS,
      status: 'cancelled',
    });
    await userEvent.selectOptions(canvas.getByLabelText('Type'), 'renewal');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, type: 'renewal' });
    await userEvent.type(canvas.getByLabelText('Plan'), 'y');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, plan: 'y' });
    await userEvent.type(canvas.getByLabelText('Source'), 'a');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, source: 'a' });
    await userEvent.selectOptions(canvas.getByLabelText('Bars'), 'grouped');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...FILTERS, barMode: 'grouped' });
    await expect(args.onFiltersChange).toHaveBeenCalledTimes(7);
    // Controlled: the view still shows the filters it was given.
    await expect(canvas.getByLabelText('Period')).toHaveValue('28d');
    blur();
  },
};

/** 'Loading…' while the first answer is due: no cards, no charts. */
export const Loading: Story = {
  args: { metrics: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading…');
    await expect(canvas.getByRole('region', { name: 'Metrics' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    await expect(canvas.queryByRole('region', { name: 'Active' })).toBeNull();
    await expect(canvas.queryByRole('region', { name: CHART_TITLES[0] })).toBeNull();
  },
};

/** A failed load: 'Error: ' + message (§8), no cards or charts; the ISR panel is independent. */
export const Error: Story = {
  args: { metrics: { status: 'error', message: 'Failed to load metrics' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Failed to load metrics');
    await expect(canvas.queryByRole('region', { name: 'Active' })).toBeNull();
    await expect(canvas.queryByRole('region', { name: CHART_TITLES[0] })).toBeNull();
    await expect(canvas.getByRole('region', { name: 'Total revenue' })).toHaveTextContent(
      `${ISR28.totalEvents} events`,
    );
  },
};

/** The ISR panel while its summary loads: '…' in every card (§2). */
export const IsrLoading: Story = {
  args: { isrSummary: { status: 'loading' } },
  play: async ({ canvas }) => {
    const panel = canvas.getByRole('region', { name: 'ISR summary' });
    await expect(within(panel).getByRole('region', { name: 'Total revenue' })).toHaveTextContent(
      'Total revenue…',
    );
    await expect(card(canvas.getByRole('region', { name: 'Metrics' }), 'Active').value).toBe('812');
  },
};

/** The ISR panel with no events in range: a dash (§2). */
export const IsrNoData: Story = {
  args: { isrSummary: { status: 'ready', data: EMPTY_ISR } },
  play: async ({ canvas }) => {
    const panel = canvas.getByRole('region', { name: 'ISR summary' });
    await expect(within(panel).getByRole('region', { name: 'Total revenue' })).toHaveTextContent(
      'Total revenue—',
    );
  },
};

/** The ISR summary failed: the red line 'ISR: ' + message (§2, §8); the metrics still show. */
export const IsrError: Story = {
  args: { isrSummary: { status: 'error', message: 'Failed to load ISR summary' } },
  play: async ({ canvas }) => {
    const panel = canvas.getByRole('region', { name: 'ISR summary' });
    await expect(within(panel).getByRole('alert')).toHaveTextContent(
      'ISR: Failed to load ISR summary',
    );
    await expect(canvas.getByRole('region', { name: 'Active' })).toBeVisible();
  },
};

/** No amount series in the answer: the amount chart shows the §2 message with the accepted names. */
export const MissingAmountSeries: Story = {
  args: { metrics: { status: 'ready', data: M_NO_AMOUNTS } },
  play: async ({ canvas }) => {
    const chart = canvas.getByRole('region', { name: 'Total amount vs providers (daily)' });
    await expect(
      within(chart).getByText('No amount time series was found in the metrics response.'),
    ).toBeVisible();
    for (const name of AMOUNT_SERIES_NAMES)
      await expect(within(chart).getByText(name)).toBeVisible();
    await expect(
      canvas.getByRole('region', { name: 'Total subscriptions vs providers (daily)' }),
    ).toBeVisible();
  },
};

/** Bars grouped side by side (§2 bar display mode). */
export const GroupedBars: Story = {
  args: { filters: { ...FILTERS, barMode: 'grouped' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Bars')).toHaveValue('grouped');
    await expect(
      canvas.getByRole('slider', { name: /^Total subscriptions vs providers/ }),
    ).toBeVisible();
  },
};

/** Custom range: the From/To date inputs appear, hold the manual days and report edits. */
export const CustomPeriod: Story = {
  args: {
    filters: { ...FILTERS, period: 'custom', customFrom: '2026-11-07', customTo: '2026-11-20' },
    range: { from: '2026-11-07', to: '2026-11-20' },
    metrics: { status: 'ready', data: M14 },
  },
  play: async ({ canvas, canvasElement, args }) => {
    await expect(canvas.getByLabelText('Period')).toHaveValue('custom');
    const from = canvas.getByLabelText('From');
    const to = canvas.getByLabelText('To');
    await expect(from).toHaveAttribute('type', 'date');
    await expect(from).toHaveValue('2026-11-07');
    await expect(to).toHaveValue('2026-11-20');
    await expect(card(canvasElement, 'New').hint).toBe('2026-11-07 → 2026-11-20');
    fireEvent.change(from, { target: { value: '2026-11-01' } });
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...args.filters,
      customFrom: '2026-11-01',
    });
    blur();
  },
};

/** Any preset other than Custom hides the date inputs. */
export const PresetHidesDates: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.queryByLabelText('From')).toBeNull();
    await expect(canvas.queryByLabelText('To')).toBeNull();
  },
};
