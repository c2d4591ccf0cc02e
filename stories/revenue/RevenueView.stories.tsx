import type { Meta, StoryObj } from '@storybook/react-vite';
import { MemoryRouter } from 'react-router-dom';
import { expect, fn, userEvent, within } from 'storybook/test';
import { normaliseCohorts, normaliseRevenue } from '../../src/api/revenue';
import { RevenueView } from '../../src/components/RevenueView';
import { customerPath } from '../../src/domain/customer';
import { DEFAULT_REVENUE_FILTERS } from '../../src/domain/revenue';
import {
  EMPTY_REVENUE_WIRE,
  MOVEMENT_LIST_WIRE,
  makeCohortsWire,
  makeRevenueWire,
} from '../../tests/msw/fixtures-revenue';

const R12 = normaliseRevenue(makeRevenueWire({ months: 12 }));
const R12_BEFORE = normaliseRevenue(makeRevenueWire({ months: 12, startCents: 2_000_000 }));
const R1 = normaliseRevenue(makeRevenueWire({ months: 1, firstMonth: '2026-11' }));
const R24 = normaliseRevenue(makeRevenueWire({ months: 24 }));
const NEGATIVE = normaliseRevenue(makeRevenueWire({ months: 6, negativeNet: true }));
const ZERO_CHURN = normaliseRevenue(makeRevenueWire({ months: 6, zeroChurn: true }));
const EMPTY = normaliseRevenue(EMPTY_REVENUE_WIRE);
const COHORTS = normaliseCohorts(makeCohortsWire(12));
const DRILL_ROWS = {
  total: MOVEMENT_LIST_WIRE.total,
  rows: MOVEMENT_LIST_WIRE.rows.map((r) => ({
    subscriptionId: r.subscription_id,
    email: String(r.email),
    provider: String(r.provider),
    plan: String(r.plan),
    cadence: String(r.cadence),
    at: r.at,
    kind: 'churn' as const,
    deltaCents: Number(r.delta_reporting_cents),
  })),
};

/** A card's figure and hint, found by its label (StatCard: h3, value p, hint p). */
function card(canvasElement: HTMLElement, label: string): { value: string; hint: string } {
  const region = within(canvasElement).getByRole('region', { name: label });
  return {
    value: region.querySelector('h3 + p')?.textContent ?? '',
    hint: region.querySelector('h3 + p + p')?.textContent ?? '',
  };
}

const CHARTS = [
  'MRR movements',
  'MRR over time',
  'Cohort retention',
  'MRR by provider',
  'MRR by plan',
];

/**
 * The Revenue screen's pure view: filters, eight cards compared with the previous period, the
 * movements chart with its drill-down, MRR over time, the cohort heatmap and MRR by provider and
 * plan, at a fixed chart width.
 */
const meta = {
  title: 'Revenue/RevenueView',
  component: RevenueView,
  decorators: [
    (Story) => (
      <MemoryRouter>
        <Story />
      </MemoryRouter>
    ),
  ],
  args: {
    filters: { ...DEFAULT_REVENUE_FILTERS, period: '270d' },
    range: { from: '2026-02-24', to: '2026-11-20' },
    revenue: { status: 'ready', data: R12 },
    previous: R12_BEFORE,
    cohorts: { status: 'ready', data: COHORTS },
    retention: 'logo',
    drilldown: null,
    chartWidth: 940,
    customerPath,
    onFiltersChange: fn(),
    onRetentionChange: fn(),
    onSelect: fn(),
    onExportMovements: fn(),
    onExportCohorts: fn(),
  },
} satisfies Meta<typeof RevenueView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Twelve months: every card with its comparison, every chart, the heatmap's cells as text. */
export const TwelveMonths: Story = {
  play: async ({ canvas, canvasElement, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Revenue' })).toBeVisible();
    const mrr = card(canvasElement, 'MRR now');
    await expect(mrr.value).toMatch(/^\$[\d,]+$/);
    await expect(mrr.hint).toMatch(/^▲ \d+\.\d% vs previous period$/);
    for (const label of [
      'Net new MRR',
      'Customer churn',
      'MRR churn',
      'NRR',
      'Quick ratio',
      'ARPA',
      'LTV',
    ])
      await expect(card(canvasElement, label).hint).toMatch(/previous period$/);
    for (const name of CHARTS) await expect(canvas.getByRole('region', { name })).toBeVisible();
    const heat = canvas.getByRole('table', { name: /Cohort retention/ });
    await expect(within(heat).getAllByRole('row')).toHaveLength(13);
    await expect(within(heat).getByRole('rowheader', { name: '2025-12' })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Revenue' }));
    await expect(args.onRetentionChange).toHaveBeenCalledWith('revenue');
    await userEvent.click(canvas.getByRole('button', { name: 'Export movements (CSV)' }));
    await expect(args.onExportMovements).toHaveBeenCalled();
  },
};

/** Twenty-four months of buckets. */
export const TwentyFourMonths: Story = {
  args: { revenue: { status: 'ready', data: R24 }, previous: null },
  play: async ({ canvas, canvasElement }) => {
    const chart = canvas.getByRole('region', { name: 'MRR movements' });
    await userEvent.click(within(chart).getByText('Data table'));
    await expect(within(chart).getAllByRole('row')).toHaveLength(25);
    await expect(card(canvasElement, 'MRR now').hint).toBe('No previous period');
  },
};

/** A single month. */
export const SingleMonth: Story = {
  args: { revenue: { status: 'ready', data: R1 }, previous: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Bar')).toHaveValue('2026-11-01');
    await expect(canvas.getByRole('region', { name: 'MRR movements' })).toBeVisible();
  },
};

/** Churn outweighs growth: net new MRR is negative and MRR falls. */
export const NegativeNet: Story = {
  args: { revenue: { status: 'ready', data: NEGATIVE }, previous: R12 },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'Net new MRR').value).toMatch(/^-\$[\d,]+$/);
    await expect(card(canvasElement, 'MRR now').hint).toMatch(/^▼ /);
  },
};

/** No customer churned: LTV has nothing to divide by and shows a dash, quick ratio too. */
export const ZeroChurn: Story = {
  args: { revenue: { status: 'ready', data: ZERO_CHURN }, previous: null },
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement, 'LTV').value).toBe('—');
    await expect(card(canvasElement, 'Quick ratio').value).toBe('—');
    await expect(card(canvasElement, 'Customer churn').value).toBe('0.0%');
  },
};

/** Nothing recurred and nothing moved in the period. */
export const Empty: Story = {
  args: {
    revenue: { status: 'ready', data: EMPTY },
    previous: null,
    cohorts: { status: 'ready', data: [] },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No recurring revenue in this period.')).toBeVisible();
    await expect(canvas.getByText('No cohorts in this period.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Export cohorts (CSV)' })).toBeDisabled();
  },
};

/** The first answer is due. */
export const Loading: Story = {
  args: { revenue: { status: 'loading' }, previous: null, cohorts: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading…');
    await expect(canvas.queryByRole('region', { name: 'MRR now' })).toBeNull();
  },
};

/** The figures failed to load. */
export const Error: Story = {
  args: {
    revenue: { status: 'error', message: 'Revenue figures are unavailable' },
    previous: null,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'Error: Revenue figures are unavailable',
    );
  },
};

/** A churn bar opened: its subscriptions, each linking to the customer's page. */
export const DrillDown: Story = {
  args: {
    drilldown: {
      selection: { date: '2026-10-01', kind: 'churn' },
      state: { status: 'ready', data: DRILL_ROWS },
    },
  },
  play: async ({ canvas, args }) => {
    const list = canvas.getByRole('region', { name: 'Subscriptions behind Churn on 2026-10-01' });
    const link = within(list).getByRole('link', { name: 'ada@example.com' });
    await expect(link).toHaveAttribute('href', '/customers/ada%40example.com');
    await expect(within(list).getByText('3 changes')).toBeVisible();
    await userEvent.click(within(list).getByRole('button', { name: 'Close' }));
    await expect(args.onSelect).toHaveBeenLastCalledWith(null);
    await userEvent.selectOptions(canvas.getByLabelText('Movement'), 'expansion');
    await userEvent.click(canvas.getByRole('button', { name: 'List subscriptions' }));
    await expect(args.onSelect).toHaveBeenLastCalledWith({ date: '2026-11-01', kind: 'expansion' });
  },
};

/** Revenue retention: cells may exceed 100 %. */
export const RevenueRetention: Story = {
  args: { retention: 'revenue' },
  play: async ({ canvas }) => {
    const heat = canvas.getByRole('table', { name: /starting MRR/ });
    await expect(within(heat).getAllByText(/^1\d\d\.\d%$/).length).toBeGreaterThan(0);
    await expect(canvas.getByRole('button', { name: 'Revenue' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  },
};
