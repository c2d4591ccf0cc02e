import type { Meta, StoryObj } from '@storybook/react-vite';
import { http } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { RevenueScreen } from '../../src/screens/RevenueScreen';
import { EMPTY_REVENUE_WIRE } from '../../tests/msw/fixtures-revenue';
import { api } from '../../tests/msw/handlers';
import { revenueDefaultHandlers, revenueHandlers } from '../../tests/msw/handlers-revenue';
import { recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

const WAIT = { timeout: 8000 } as const;
const revenue = recordRequests('/metrics/revenue');
const cohorts = recordRequests('/metrics/cohorts');

/** Every drill-down request: the bar's date (from the path) and the query parameters. */
const movementRequests: { date: string; params: Record<string, string> }[] = [];
const recordMovements = http.get(api('/metrics/revenue/movements/:date'), ({ request, params }) => {
  movementRequests.push({
    date: String(params.date),
    params: Object.fromEntries(new URL(request.url).searchParams),
  });
});

/** The default answers with every revenue, cohorts and drill-down request recorded. */
const recordedHandlers = () => [
  revenue.handler,
  cohorts.handler,
  recordMovements,
  ...revenueDefaultHandlers(),
];

/**
 * The Revenue screen (docs/metrics.md) against mocked GET /metrics/revenue, /metrics/cohorts and
 * /metrics/revenue/movements/:date inside the real router at /revenue, on the pinned story clock
 * (2026-11-20): the filters live in the URL and reach the requests, a deep link, loading, error,
 * an empty period and the drill-down behind a bar.
 */
const meta = {
  title: 'Screens/Revenue',
  component: RevenueScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/revenue' },
    msw: { handlers: recordedHandlers() },
  },
  beforeEach: () => {
    revenue.reset();
    cohorts.reset();
    movementRequests.length = 0;
  },
} satisfies Meta<typeof RevenueScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The figure a card shows, found by its label (StatCard: h3, then the value). */
function cardValue(canvasElement: HTMLElement, label: string): string {
  const card = within(canvasElement).getByRole('region', { name: label });
  return card.querySelector('h3 + p')?.textContent ?? '';
}

/** Opens a chart's data-table alternative and returns its body rows. */
async function dataTableRows(canvasElement: HTMLElement, chart: string): Promise<HTMLElement[]> {
  const region = within(canvasElement).getByRole('region', { name: chart });
  await userEvent.click(within(region).getByText('Data table'));
  const [, ...rows] = within(region).getAllByRole('row');
  return rows;
}

/** The cards have figures. */
async function cardsShown(canvasElement: HTMLElement) {
  await within(canvasElement).findByRole('region', { name: 'MRR now' }, WAIT);
  await expect(cardValue(canvasElement, 'MRR now')).toMatch(/^\$[\d,]+$/);
  await expect(cardValue(canvasElement, 'Net new MRR')).toMatch(/^-?\$[\d,]+$/);
  await expect(cardValue(canvasElement, 'ARPA')).toMatch(/^\$[\d,.]+$/);
}

/**
 * The default 28 days: the eight cards, every chart, the movements chart's data table (one row
 * per bucket), the cohort heatmap; the current range and the previous one were both asked for.
 */
export const Ready: Story = {
  play: async ({ canvas, canvasElement }) => {
    await cardsShown(canvasElement);
    for (const label of [
      'MRR now',
      'Net new MRR',
      'Customer churn',
      'MRR churn',
      'NRR',
      'Quick ratio',
      'ARPA',
      'LTV',
    ])
      await expect(canvas.getByRole('region', { name: label })).toBeVisible();
    for (const name of ['MRR movements', 'MRR over time', 'MRR by provider', 'MRR by plan'])
      await expect(await canvas.findByRole('region', { name }, WAIT)).toBeVisible();
    await expect(
      await canvas.findByRole('table', { name: /Cohort retention/ }, WAIT),
    ).toBeVisible();
    const rows = await dataTableRows(canvasElement, 'MRR movements');
    await expect(rows).toHaveLength(12);
    await expect(rows[0]).toHaveTextContent('2025-12-01');
    await waitFor(() => expect(revenue.params()).toHaveLength(2), WAIT);
    await expect(revenue.params()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: '2026-10-24', to: '2026-11-20' }),
        expect.objectContaining({ from: '2026-09-26', to: '2026-10-23' }),
      ]),
    );
    await expect(cohorts.params()).toEqual([
      expect.objectContaining({ from: '2026-10-24', to: '2026-11-20' }),
    ]);
    window.scrollTo(0, 0);
  },
};

/**
 * Changing the period preset and then the interval writes both to the URL at once, and the next
 * request carries them.
 */
export const FiltersInTheUrl: Story = {
  play: async ({ canvas, canvasElement }) => {
    await cardsShown(canvasElement);
    await waitFor(() => expect(revenue.params()).toHaveLength(2), WAIT);
    await userEvent.selectOptions(canvas.getByLabelText('Period'), '90d');
    await waitFor(() => expect(screenRouter().state.location.search).toBe('?period=90d'));
    await waitFor(
      () =>
        expect(revenue.params()).toContainEqual(
          expect.objectContaining({ from: '2026-08-23', to: '2026-11-20' }),
        ),
      WAIT,
    );
    await userEvent.selectOptions(canvas.getByLabelText('Interval'), 'month');
    await waitFor(() =>
      expect(screenRouter().state.location.search).toBe('?period=90d&interval=month'),
    );
    await waitFor(
      () =>
        expect(revenue.params()).toContainEqual(
          expect.objectContaining({ from: '2026-08-23', to: '2026-11-20', interval: 'month' }),
        ),
      WAIT,
    );
    await expect(canvas.getByLabelText('Period')).toHaveValue('90d');
    await expect(canvas.getByLabelText('Interval')).toHaveValue('month');
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A deep link with a custom range and filters: the fields show them and the request asks for them. */
export const DeepLinkWithFilters: Story = {
  parameters: {
    screen: {
      route:
        '/revenue?period=custom&from=2026-01-01&to=2026-06-30&provider=clickbank&cadence=yearly&interval=month',
    },
  },
  play: async ({ canvas, canvasElement }) => {
    await cardsShown(canvasElement);
    await expect(canvas.getByLabelText('Period')).toHaveValue('custom');
    await expect(canvas.getByLabelText('From')).toHaveValue('2026-01-01');
    await expect(canvas.getByLabelText('To')).toHaveValue('2026-06-30');
    await expect(canvas.getByLabelText('Provider')).toHaveValue('clickbank');
    await expect(canvas.getByLabelText('Cadence')).toHaveValue('yearly');
    await expect(canvas.getByLabelText('Interval')).toHaveValue('month');
    await waitFor(() => expect(revenue.params()).toHaveLength(2), WAIT);
    await expect(revenue.params()).toContainEqual({
      from: '2026-01-01',
      to: '2026-06-30',
      provider: 'clickbank',
      cadence: 'yearly',
      interval: 'month',
    });
    await expect(cohorts.params()).toEqual([
      { from: '2026-01-01', to: '2026-06-30', provider: 'clickbank' },
    ]);
  },
};

/** While the figures load: 'Loading…', no cards yet. */
export const Loading: Story = {
  parameters: { msw: { handlers: [revenueHandlers.loading(), revenueHandlers.cohorts()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', {}, WAIT)).toHaveTextContent('Loading…');
    await expect(canvas.queryByRole('region', { name: 'MRR now' })).toBeNull();
  },
};

/** The figures failed to load: the server's message, no cards. */
export const Error: Story = {
  parameters: {
    msw: { handlers: [revenueHandlers.error('Revenue query failed'), revenueHandlers.cohorts()] },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert', {}, WAIT)).toHaveTextContent(
      'Error: Revenue query failed',
    );
    await expect(canvas.queryByRole('region', { name: 'MRR now' })).toBeNull();
  },
};

/** Nothing recurred and nothing moved in the period: the empty sentences, no cohort export. */
export const Empty: Story = {
  parameters: {
    msw: {
      handlers: [
        revenueHandlers.ok(EMPTY_REVENUE_WIRE),
        revenueHandlers.cohorts({ currency: 'USD', range: {}, cohorts: [] }),
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByText('No recurring revenue in this period.', {}, WAIT),
    ).toBeVisible();
    await expect(await canvas.findByText('No cohorts in this period.', {}, WAIT)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Export cohorts (CSV)' })).toBeDisabled();
  },
};

/**
 * A bar opened from the keyboard (the chart's bar and movement, then 'List subscriptions'): GET
 * /metrics/revenue/movements/2026-10-01 with the kind, the interval and the filters, and the list
 * with links to the customers (left open for the screenshot).
 */
export const MovementDrillDown: Story = {
  parameters: { screen: { route: '/revenue?provider=lemonsqueezy' } },
  play: async ({ canvas, canvasElement }) => {
    await cardsShown(canvasElement);
    // The charts, and this form with them, render once their width is measured: after the cards.
    await userEvent.selectOptions(await canvas.findByLabelText('Bar', {}, WAIT), '2026-10-01');
    await userEvent.selectOptions(canvas.getByLabelText('Movement'), 'churn');
    await userEvent.click(canvas.getByRole('button', { name: 'List subscriptions' }));
    const list = await canvas.findByRole(
      'region',
      { name: 'Subscriptions behind Churn on 2026-10-01' },
      WAIT,
    );
    await expect(await within(list).findByText('3 changes', {}, WAIT)).toBeVisible();
    await expect(within(list).getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      '/customers/ada%40example.com',
    );
    await expect(movementRequests).toEqual([
      {
        date: '2026-10-01',
        params: expect.objectContaining({
          kind: 'churn',
          interval: 'month',
          provider: 'lemonsqueezy',
          from: '2026-10-24',
          to: '2026-11-20',
        }),
      },
    ]);
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  },
};
