import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { PieChart } from '../../src/components/PieChart';
import { normaliseMetricsOverview, providerLabel, type PieSlice } from '../../src/domain/metrics';
import { TEN_PROVIDERS, makeMetricsWire } from '../../tests/msw/fixtures-metrics';

const m = normaliseMetricsOverview(makeMetricsWire());
const m10 = normaliseMetricsOverview(makeMetricsWire({ providers: TEN_PROVIDERS }));
const withUnknown = normaliseMetricsOverview({
  pies: {
    activeByProvider: [
      { provider: 'lemonsqueezy', cnt: 500 },
      { provider: 'cb', cnt: 300 },
      { provider: '', cnt: 12 },
    ],
  },
});

/** Pies (§2 'Active subscriptions by provider' / 'by plan'), slices named and normalised (§5). */
const meta = {
  title: 'Metrics/PieChart',
  component: PieChart<PieSlice>,
  args: {
    title: 'Active subscriptions by provider',
    width: 380,
    height: 320,
    data: m.pies.activeByProvider,
    nameAccessor: (d: PieSlice) => d.name,
    labelAccessor: (d: PieSlice) => providerLabel(d.name),
    valueAccessor: (d: PieSlice) => d.cnt,
  },
} satisfies Meta<typeof PieChart<PieSlice>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Two providers: the legend gives counts and shares. */
export const ByProvider: Story = {
  play: async ({ canvas }) => {
    const legend = canvas.getByRole('list', { name: 'Legend' });
    await expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['LemonSqueezy512 · 63.1%', 'ClickBank300 · 36.9%']);
    const slider = canvas.getByRole('slider', { name: /Active subscriptions by provider/ });
    slider.focus();
    await userEvent.keyboard('{ArrowRight}');
    await expect(slider).toHaveAttribute('aria-valuetext', 'ClickBank: 36.9% 300');
  },
};

export const ByPlan: Story = {
  args: {
    title: 'Active subscriptions by plan',
    data: m.pies.activeByPlan,
    labelAccessor: (d: PieSlice) => d.name,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('list', { name: 'Legend' })).toHaveTextContent(
      'monthly640 · 78.8%',
    );
  },
};

export const TenProviders: Story = {
  args: { data: m10.pies.activeByProvider },
  play: async ({ canvas }) => {
    await expect(
      within(canvas.getByRole('list', { name: 'Legend' })).getAllByRole('listitem'),
    ).toHaveLength(10);
  },
};

/** A blank provider becomes 'unknown' (§5), in grey. */
export const UnknownProvider: Story = {
  args: { data: withUnknown.pies.activeByProvider },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('list', { name: 'Legend' })).toHaveTextContent(
      'unknown12 · 1.5%',
    );
  },
};

export const Empty: Story = {
  args: { data: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No data for this period.')).toBeVisible();
  },
};

export const Loading: Story = {
  args: { status: 'loading' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading chart…');
  },
};
