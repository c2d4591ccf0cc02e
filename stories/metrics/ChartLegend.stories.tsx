import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { SERIES_COLORS, seriesColor } from '../../src/components/ChartFrame';
import { ChartLegend } from '../../src/components/ChartLegend';

/** The chart legend: bar and line swatches, optional figures. */
const meta = {
  title: 'Metrics/ChartLegend',
  component: ChartLegend,
  args: {
    items: [
      { key: 'lemonsqueezy', label: 'LemonSqueezy', color: SERIES_COLORS.lemonsqueezy },
      { key: 'clickbank', label: 'ClickBank', color: SERIES_COLORS.clickbank },
      { key: 'stripe', label: 'stripe', color: seriesColor('stripe', 2) },
      { key: 'unknown', label: 'unknown', color: SERIES_COLORS.unknown },
      { key: 'total', label: 'Total', color: SERIES_COLORS.total, shape: 'line' },
    ],
  },
} satisfies Meta<typeof ChartLegend>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('list', { name: 'Legend' })).toHaveTextContent(
      'LemonSqueezyClickBankstripeunknownTotal',
    );
  },
};

/** With figures, as the pies show them. */
export const WithValues: Story = {
  args: {
    items: [
      { key: 'a', label: 'LemonSqueezy', color: SERIES_COLORS.lemonsqueezy, value: '512 · 63.1%' },
      { key: 'b', label: 'ClickBank', color: SERIES_COLORS.clickbank, value: '300 · 36.9%' },
    ],
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('512 · 63.1%')).toBeVisible();
  },
};
