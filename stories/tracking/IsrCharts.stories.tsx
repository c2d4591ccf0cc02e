import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { IsrCharts } from '../../src/components/IsrCharts';
import { isrProviderSplit, pivotIsrDaily, type IsrDailyRow } from '../../src/domain/isr';
import { ISR_AFFILIATES_WIRE, makeIsrDailyWire } from '../../tests/msw/fixtures-metrics';

const toRows = (days: number): IsrDailyRow[] =>
  makeIsrDailyWire(days).map((r) => ({
    day: r.day,
    source: r.source,
    events: r.events,
    amountCents: r.amount_cents,
  }));
const rows14 = toRows(14);
const affiliates = ISR_AFFILIATES_WIRE.map((a) => ({
  affiliate: a.affiliate,
  amountCents: a.amount_cents,
  events: a.events,
}));

/** The four Integrated Tracking charts (§2) at a fixed width. */
const meta = {
  title: 'Tracking/IsrCharts',
  component: IsrCharts,
  args: {
    width: 1000,
    daily: { status: 'ready', data: pivotIsrDaily(rows14) },
    affiliates: { status: 'ready', data: affiliates },
    split: { status: 'ready', data: isrProviderSplit(rows14) },
  },
} satisfies Meta<typeof IsrCharts>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 14 days: revenue bars + total, event lines + total, top affiliates with the first 6 listed, the split pie. */
export const Default: Story = {
  play: async ({ canvas }) => {
    for (const name of [
      'Daily revenue by provider',
      'Daily events count',
      'Top affiliates by revenue',
      'Provider split by revenue',
    ])
      await expect(canvas.getByRole('region', { name })).toBeVisible();
    const list = canvas.getByRole('list', { name: 'Top affiliates by revenue: first 6' });
    const items = within(list).getAllByRole('listitem');
    await expect(items).toHaveLength(6);
    await expect(items[0]).toHaveTextContent('superaff$24.8k');
    const legend = within(canvas.getByRole('region', { name: 'Daily events count' })).getByRole(
      'list',
      { name: 'Legend' },
    );
    await expect(legend).toHaveTextContent('LemonSqueezyClickBankcustomTotal');
  },
};

export const Loading: Story = {
  args: {
    daily: { status: 'loading' },
    affiliates: { status: 'loading' },
    split: { status: 'loading' },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('Loading chart…')).toHaveLength(4);
  },
};

export const Empty: Story = {
  args: {
    daily: { status: 'ready', data: pivotIsrDaily([]) },
    affiliates: { status: 'ready', data: [] },
    split: { status: 'ready', data: [] },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByText('No data for this period.')).toHaveLength(4);
  },
};

/** 30 days (the widest range button). */
export const ThirtyDays: Story = {
  args: { daily: { status: 'ready', data: pivotIsrDaily(toRows(30)) } },
  play: async ({ canvas }) => {
    const chart = canvas.getByRole('region', { name: 'Daily revenue by provider' });
    await expect(within(chart).getByRole('slider')).toHaveAttribute('aria-valuemax', '30');
  },
};
