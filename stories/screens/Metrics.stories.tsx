import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { MetricsScreen } from '../../src/screens/MetricsScreen';
import { makeIsrSummaryWire, makeMetricsWire } from '../../tests/msw/fixtures-metrics';
import { isrSummaryHandlers, metricsHandlers } from '../../tests/msw/handlers-metrics';
import { pause, recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

const WAIT = { timeout: 8000 } as const;
const overview = recordRequests('/metrics/overview');
const isrSummary = recordRequests('/isr-metrics/summary');
/** The default handlers with every overview and ISR summary request recorded. */
const recordedHandlers = () => [
  overview.handler,
  isrSummary.handler,
  metricsHandlers.byRange(),
  isrSummaryHandlers.ok(),
];

/**
 * The Metrics screen (§2 Metrics) against mocked GET /metrics/overview and
 * /isr-metrics/summary: default 28 days, loading, errors (§8), a malformed answer, the missing
 * amount series (§2 message), a 365-day range, and the §4 transitions proven on the requests
 * sent: Custom keeps the range on screen, and every change of period reloads.
 */
const meta = {
  title: 'Screens/Metrics',
  component: MetricsScreen,
  decorators: [withScreen],
  parameters: {
    screen: { route: '/metrics' },
    msw: { handlers: [metricsHandlers.byRange(), isrSummaryHandlers.ok()] },
  },
  beforeEach: () => {
    overview.reset();
    isrSummary.reset();
  },
} satisfies Meta<typeof MetricsScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The figure a card shows, found by its label. */
function cardValue(canvasElement: HTMLElement, label: string): HTMLElement {
  const card = within(canvasElement).getByRole('region', { name: label });
  const value = card.querySelector('h3 + p');
  if (!(value instanceof HTMLElement)) throw new globalThis.Error(`card ${label} has no value`);
  return value;
}

function cardHint(canvasElement: HTMLElement, label: string): string {
  const card = within(canvasElement).getByRole('region', { name: label });
  return card.querySelector('h3 + p + p')?.textContent ?? '';
}

const usd0 = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(cents / 100);
const usd2 = (cents: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
  }).format(cents / 100);

const W28 = makeMetricsWire({ days: 28 });
const ISR28 = makeIsrSummaryWire(28);

/**
 * Ends an interactive play where a screenshot is stable: focus dropped and the page scrolled back
 * to the top (a tall screen is captured from the same scroll position every run).
 */
async function settle(): Promise<void> {
  if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  window.scrollTo(0, 0);
  await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
}

/** Default: last 28 days (2026-10-24 → 2026-11-20), the six cards, the ISR panel and five charts. */
export const Default28Days: Story = {
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'Active' });
    await expect(canvas.getByLabelText('Period')).toHaveValue('28d');
    const t = W28.totals;
    await expect(cardValue(canvasElement, 'Active')).toHaveTextContent('812');
    await expect(cardHint(canvasElement, 'Active')).toBe('Currently active');
    await expect(cardValue(canvasElement, 'New')).toHaveTextContent(String(t.totalNewInRange));
    await expect(cardHint(canvasElement, 'New')).toBe('2026-10-24 → 2026-11-20');
    await expect(cardValue(canvasElement, 'Renewals')).toHaveTextContent(
      String(t.totalRenewalsInRange),
    );
    await expect(cardValue(canvasElement, 'Cancellations')).toHaveTextContent(
      String(t.totalCancellationsInRange),
    );
    await expect(cardValue(canvasElement, 'Churn')).toHaveTextContent(
      `${(t.churnRate * 100).toFixed(1)}%`,
    );
    await expect(cardHint(canvasElement, 'Churn')).toBe('Cancels ÷ start active');
    await expect(cardValue(canvasElement, 'Est. Revenue')).toHaveTextContent(
      usd0(t.estimatedRevenueCents),
    );
    await expect(cardHint(canvasElement, 'Est. Revenue')).toBe('New + renewals');
    await waitFor(() =>
      expect(cardValue(canvasElement, 'Total revenue')).toHaveTextContent(
        usd2(ISR28.total_amount_cents),
      ),
    );
    await expect(cardHint(canvasElement, 'Total revenue')).toBe(`${ISR28.total_events} events`);
    await expect(cardValue(canvasElement, 'ClickBank-side revenue')).toHaveTextContent(
      usd2(ISR28.clickbank_amount_cents),
    );
    await expect(cardValue(canvasElement, 'Avg order')).toHaveTextContent(
      usd2(Math.round(ISR28.total_amount_cents / ISR28.total_events)),
    );
    for (const title of [
      'Total subscriptions vs providers (daily)',
      'Total amount vs providers (daily)',
      'Daily trend: New vs Renewals vs Cancellations',
      'New subscriptions by provider (daily)',
      'Active subscriptions by provider',
      'Active subscriptions by plan',
    ]) {
      await expect(
        await canvas.findByRole('slider', { name: new RegExp(title.replace(/[()]/g, '\\$&')) }),
      ).toBeVisible();
    }
    await settle();
  },
};

/** Switching to 90 days reloads the figures for 2026-08-23 → 2026-11-20 and puts it in the URL. */
export const SwitchTo90Days: Story = {
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'Active' });
    await userEvent.selectOptions(canvas.getByLabelText('Period'), '90d');
    const w90 = makeMetricsWire({ days: 90 });
    await waitFor(() => expect(cardHint(canvasElement, 'New')).toBe('2026-08-23 → 2026-11-20'));
    await waitFor(() =>
      expect(cardValue(canvasElement, 'New')).toHaveTextContent(String(w90.totals.totalNewInRange)),
    );
    await expect(cardValue(canvasElement, 'Renewals')).toHaveTextContent(
      String(w90.totals.totalRenewalsInRange),
    );
    await settle();
  },
};

/**
 * §4: choosing Custom keeps the range that was on screen (the 28 days, 2026-10-24 → 2026-11-20)
 * in the date inputs, the URL and the requests, rather than blank dates; the operator then edits
 * from there and each edit reloads the metrics and the ISR summary.
 */
export const CustomKeepsTheRange: Story = {
  parameters: { msw: { handlers: recordedHandlers() } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'Active' });
    await userEvent.selectOptions(canvas.getByLabelText('Period'), 'custom');
    await expect(canvas.getByLabelText('From')).toHaveValue('2026-10-24');
    await expect(canvas.getByLabelText('To')).toHaveValue('2026-11-20');
    await expect(screenRouter().state.location.search).toBe(
      '?period=custom&from=2026-10-24&to=2026-11-20',
    );
    await expect(cardHint(canvasElement, 'New')).toBe('2026-10-24 → 2026-11-20');
    // The same days as before: no request without dates goes out.
    await pause(300);
    for (const params of overview.params())
      await expect(params).toEqual({ from: '2026-10-24', to: '2026-11-20' });
    for (const params of isrSummary.params())
      await expect(params).toEqual({ from: '2026-10-24 00:00:00', to: '2026-11-20 23:59:59' });

    fireEvent.change(canvas.getByLabelText('From'), { target: { value: '2026-11-01' } });
    await waitFor(
      () => expect(overview.params().at(-1)).toEqual({ from: '2026-11-01', to: '2026-11-20' }),
      WAIT,
    );
    await waitFor(
      () =>
        expect(isrSummary.params().at(-1)).toEqual({
          from: '2026-11-01 00:00:00',
          to: '2026-11-20 23:59:59',
        }),
      WAIT,
    );
    const w20 = makeMetricsWire({ days: 20 });
    await waitFor(() =>
      expect(cardValue(canvasElement, 'New')).toHaveTextContent(String(w20.totals.totalNewInRange)),
    );
    await expect(cardHint(canvasElement, 'New')).toBe('2026-11-01 → 2026-11-20');
    await settle();
  },
};

/**
 * §4: every change of period reloads the metrics and the ISR summary, a return to a period seen
 * a moment ago included (28 → 90 → 28 days sends three of each, not two from a warm cache).
 */
export const ReturningToAPeriodReloads: Story = {
  parameters: { msw: { handlers: recordedHandlers() } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'Active' });
    await waitFor(() => expect(overview.params()).toHaveLength(1), WAIT);
    await userEvent.selectOptions(canvas.getByLabelText('Period'), '90d');
    await waitFor(() => expect(overview.params()).toHaveLength(2), WAIT);
    await expect(overview.params()[1]).toEqual({ from: '2026-08-23', to: '2026-11-20' });
    await waitFor(() => expect(cardHint(canvasElement, 'New')).toBe('2026-08-23 → 2026-11-20'));
    await userEvent.selectOptions(canvas.getByLabelText('Period'), '28d');
    await waitFor(() => expect(overview.params()).toHaveLength(3), WAIT);
    await expect(overview.params()[2]).toEqual({ from: '2026-10-24', to: '2026-11-20' });
    await waitFor(() => expect(isrSummary.params()).toHaveLength(3), WAIT);
    await expect(isrSummary.params()[2]).toEqual({
      from: '2026-10-24 00:00:00',
      to: '2026-11-20 23:59:59',
    });
    await waitFor(() =>
      expect(cardValue(canvasElement, 'New')).toHaveTextContent(String(W28.totals.totalNewInRange)),
    );
    await settle();
  },
};

/** The answer never arrives: 'Loading…', and '…' in the ISR cards while that loads too. */
export const Loading: Story = {
  parameters: { msw: { handlers: [metricsHandlers.loading(), isrSummaryHandlers.loading()] } },
  play: async ({ canvas, canvasElement }) => {
    await expect(await canvas.findByText('Loading…')).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Active' })).toBeNull();
    await expect(cardValue(canvasElement, 'Total revenue')).toHaveTextContent('…');
  },
};

/** A 500 with a message: 'Error: ' + the message (§8); the ISR panel is independent. */
export const Error: Story = {
  parameters: {
    msw: {
      handlers: [metricsHandlers.error(500, 'Metrics query failed'), isrSummaryHandlers.ok()],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Error: Metrics query failed')).toBeVisible();
    await expect(canvas.queryByRole('region', { name: 'Active' })).toBeNull();
  },
};

/** A 200 that is not an object: the §8 default 'Failed to load metrics'. */
export const MalformedAnswer: Story = {
  parameters: { msw: { handlers: [metricsHandlers.malformed(), isrSummaryHandlers.ok()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Error: Failed to load metrics')).toBeVisible();
  },
};

/** The ISR summary fails: a red line 'ISR: ' + message; the metrics still show. */
export const IsrSummaryError: Story = {
  parameters: {
    msw: {
      handlers: [metricsHandlers.byRange(), isrSummaryHandlers.error(500, 'ISR store offline')],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('ISR: ISR store offline')).toBeVisible();
    await expect(await canvas.findByRole('region', { name: 'Active' })).toBeVisible();
  },
};

/** No ISR events in range: the ISR cards show a dash. */
export const IsrNoData: Story = {
  parameters: { msw: { handlers: [metricsHandlers.byRange(), isrSummaryHandlers.empty()] } },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'Active' });
    await waitFor(() => expect(cardValue(canvasElement, 'Total revenue')).toHaveTextContent('—'));
    await expect(cardValue(canvasElement, 'Avg order')).toHaveTextContent('—');
  },
};

/** No amount series in the answer: the amount chart lists the accepted names (§2). */
export const MissingAmountSeries: Story = {
  parameters: { msw: { handlers: [metricsHandlers.noAmountSeries(), isrSummaryHandlers.ok()] } },
  play: async ({ canvas }) => {
    const chart = await canvas.findByRole('region', { name: 'Total amount vs providers (daily)' });
    await expect(chart).toHaveTextContent('No amount time series was found');
    await expect(chart).toHaveTextContent(
      'byProviderDailyAmount, byProviderDailyAmountCents, amountByProviderDaily, dailyAmountByProvider',
    );
  },
};

/** A custom 365-day range from the URL: the custom date inputs show, every chart has 365 days. */
export const Range365Days: Story = {
  parameters: {
    screen: { route: '/metrics?period=custom&from=2025-11-21&to=2026-11-20&bars=grouped' },
  },
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('region', { name: 'Active' });
    await expect(canvas.getByLabelText('From')).toHaveValue('2025-11-21');
    await expect(canvas.getByLabelText('To')).toHaveValue('2026-11-20');
    await expect(canvas.getByLabelText('Bars')).toHaveValue('grouped');
    const w365 = makeMetricsWire({ days: 365 });
    await expect(cardValue(canvasElement, 'New')).toHaveTextContent(
      new Intl.NumberFormat('en-US').format(w365.totals.totalNewInRange),
    );
    const slider = await canvas.findByRole('slider', { name: /Total subscriptions vs providers/ });
    await expect(slider).toHaveAttribute('aria-valuemax', '365');
    await settle();
  },
};
