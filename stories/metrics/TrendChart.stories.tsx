import type { Meta, StoryObj } from '@storybook/react-vite';
import { openDataTable, closeDataTable } from '../support/chart';
import { expect, userEvent, within } from 'storybook/test';
import { SERIES_COLORS } from '../../src/components/ChartFrame';
import { TrendChart } from '../../src/components/TrendChart';
import { normaliseMetricsOverview, type TrendDailyRow } from '../../src/domain/metrics';
import { makeMetricsWire } from '../../tests/msw/fixtures-metrics';

const m28 = normaliseMetricsOverview(makeMetricsWire({ days: 28 }));
const m1 = normaliseMetricsOverview(makeMetricsWire({ days: 1 }));
const m365 = normaliseMetricsOverview(makeMetricsWire({ days: 365 }));

const trendSeries = [
  { key: 'new', label: 'New', color: SERIES_COLORS.new, accessor: (d: TrendDailyRow) => d.new },
  {
    key: 'renewals',
    label: 'Renewals',
    color: SERIES_COLORS.renewals,
    accessor: (d: TrendDailyRow) => d.renewals,
  },
  {
    key: 'cancellations',
    label: 'Cancellations',
    color: SERIES_COLORS.cancellations,
    accessor: (d: TrendDailyRow) => d.cancellations,
  },
];

/** The multi-line trend (§2 'Daily trend: New vs Renewals vs Cancellations'). */
const meta = {
  title: 'Metrics/TrendChart',
  component: TrendChart<TrendDailyRow>,
  args: {
    title: 'Daily trend: New vs Renewals vs Cancellations',
    width: 760,
    height: 340,
    data: m28.lineDaily,
    xAccessor: (d: TrendDailyRow) => d.date,
    series: trendSeries,
  },
} satisfies Meta<typeof TrendChart<TrendDailyRow>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three lines over 28 days. */
export const Default: Story = {
  play: async ({ canvas }) => {
    const legend = canvas.getByRole('list', { name: 'Legend' });
    await expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['New', 'Renewals', 'Cancellations']);
    const slider = canvas.getByRole('slider', { name: /Daily trend/ });
    slider.focus();
    await userEvent.keyboard('{End}');
    const last = m28.lineDaily[27]!;
    await expect(slider).toHaveAttribute(
      'aria-valuetext',
      `2026-11-20: New ${last.new}, Renewals ${last.renewals}, Cancellations ${last.cancellations}`,
    );
  },
};

export const Loading: Story = {
  args: { status: 'loading' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading chart…');
  },
};

export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No data for this period.')).toBeVisible();
  },
};

export const OneDay: Story = {
  args: { data: m1.lineDaily },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('slider')).toHaveAttribute('aria-valuemax', '1');
  },
};

export const Days365: Story = {
  args: { data: m365.lineDaily },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('slider')).toHaveAttribute('aria-valuemax', '365');
    await expect(await openDataTable(canvasElement)).toHaveLength(366);
    await closeDataTable(canvasElement);
  },
};
