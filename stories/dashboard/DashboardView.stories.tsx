import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import type { DashboardStats } from '../../src/domain/types';
import { DashboardView } from '../../src/components/DashboardView';

/** A typical day: USD figures in cents, every card present. */
const fullStats: DashboardStats = {
  currency: 'USD',
  mrrCents: 1_234_567,
  arrCents: 14_814_804,
  activeTotal: 1_204,
  activeMonthly: 980,
  activeYearly: 224,
  scheduledCancellations: 37,
  avgDaysRemaining: 18.46,
  newToday: 3,
  renewalsToday: 11,
  cancellationsToday: 1,
  totalSubscribers: 5_321,
  totalRevenueCents: 98_765_432,
};

/** The cards a ready dashboard must show, in order: [label, exact value text]. */
type ExpectedCards = readonly (readonly [label: string, value: string])[];

/** Asserts the exact cards (label and value, in order) of the Dashboard region. */
async function expectCards(canvasElement: HTMLElement, expected: ExpectedCards) {
  const view = within(canvasElement).getByRole('region', { name: 'Dashboard' });
  const cards = within(view).getAllByRole('region');
  await expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(
    expected.map(([label]) => label),
  );
  await expect(cards.map((card) => card.textContent)).toEqual(
    expected.map(([label, value]) => `${label}${value}`),
  );
  for (const [label] of expected) {
    await expect(within(view).getByRole('heading', { level: 3, name: label })).toBeVisible();
  }
}

const meta = {
  title: 'Dashboard/DashboardView',
  component: DashboardView,
  // The screen sits in the layout's padded main landmark; the story gives it the same room.
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-5)' }}>
        <Story />
      </div>
    ),
  ],
  args: { state: { status: 'ready', data: fullStats } },
} satisfies Meta<typeof DashboardView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** While GET /stats is in flight. */
export const Loading: Story = {
  args: { state: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const status = canvas.getByRole('status');
    await expect(status).toHaveTextContent(/^Loading stats…$/);
    await expect(status).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Dashboard' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    await expect(canvas.queryByRole('region', { name: 'MRR' })).toBeNull();
  },
};

/** The load failed without a message: the screen passes the §8 default. */
export const Error: Story = {
  args: { state: { status: 'error', message: 'Failed to load stats' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(/^Error: Failed to load stats$/);
    await expect(canvas.queryByRole('status')).toBeNull();
    await expect(canvas.queryByRole('region', { name: 'MRR' })).toBeNull();
  },
};

/** The load failed with the server's message. */
export const ErrorWithMessage: Story = {
  args: { state: { status: 'error', message: 'Database connection refused' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      /^Error: Database connection refused$/,
    );
  },
};

/** Every card, including the all-time totals. */
export const Full: Story = {
  play: async ({ canvasElement, canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Dashboard' })).toHaveAttribute(
      'aria-busy',
      'false',
    );
    await expectCards(canvasElement, [
      ['MRR', '$12,345.67'],
      ['ARR', '$148,148.04'],
      ['Today', '3 new · 11 renewals · 1 cancels'],
      ['Currency', 'USD'],
      ['Active (Total)', '1,204'],
      ['Active (Monthly)', '980'],
      ['Active (Yearly)', '224'],
      ['Scheduled Cancellations', '37'],
      ['Avg Days Remaining', '18.5'],
      ['Total Subscribers', '5,321'],
      ['Total Revenue', '$987,654'],
    ]);
  },
};

/** All-time totals of zero: their cards are absent (§2). */
export const AllTimeHidden: Story = {
  args: {
    state: { status: 'ready', data: { ...fullStats, totalSubscribers: 0, totalRevenueCents: 0 } },
  },
  play: async ({ canvasElement, canvas }) => {
    await expect(canvas.queryByRole('region', { name: 'Total Subscribers' })).toBeNull();
    await expect(canvas.queryByRole('region', { name: 'Total Revenue' })).toBeNull();
    await expectCards(canvasElement, [
      ['MRR', '$12,345.67'],
      ['ARR', '$148,148.04'],
      ['Today', '3 new · 11 renewals · 1 cancels'],
      ['Currency', 'USD'],
      ['Active (Total)', '1,204'],
      ['Active (Monthly)', '980'],
      ['Active (Yearly)', '224'],
      ['Scheduled Cancellations', '37'],
      ['Avg Days Remaining', '18.5'],
    ]);
  },
};

/** Stats in euros: every money card uses the stats currency. */
export const EuroCurrency: Story = {
  args: { state: { status: 'ready', data: { ...fullStats, currency: 'EUR' } } },
  play: async ({ canvasElement }) => {
    await expectCards(canvasElement, [
      ['MRR', '€12,345.67'],
      ['ARR', '€148,148.04'],
      ['Today', '3 new · 11 renewals · 1 cancels'],
      ['Currency', 'EUR'],
      ['Active (Total)', '1,204'],
      ['Active (Monthly)', '980'],
      ['Active (Yearly)', '224'],
      ['Scheduled Cancellations', '37'],
      ['Avg Days Remaining', '18.5'],
      ['Total Subscribers', '5,321'],
      ['Total Revenue', '€987,654'],
    ]);
  },
};

/** No average days remaining from the backend: a dash. Only one all-time card non-zero. */
export const MissingAvgDays: Story = {
  args: {
    state: {
      status: 'ready',
      data: {
        ...fullStats,
        avgDaysRemaining: null,
        totalSubscribers: 0,
        scheduledCancellations: 0,
      },
    },
  },
  play: async ({ canvasElement }) => {
    await expectCards(canvasElement, [
      ['MRR', '$12,345.67'],
      ['ARR', '$148,148.04'],
      ['Today', '3 new · 11 renewals · 1 cancels'],
      ['Currency', 'USD'],
      ['Active (Total)', '1,204'],
      ['Active (Monthly)', '980'],
      ['Active (Yearly)', '224'],
      ['Scheduled Cancellations', '0'],
      ['Avg Days Remaining', '—'],
      ['Total Revenue', '$987,654'],
    ]);
  },
};

/** Very large figures wrap inside their cards instead of breaking the grid. */
export const LargeNumbers: Story = {
  args: {
    state: {
      status: 'ready',
      data: {
        currency: 'USD',
        mrrCents: 987_654_321_098,
        arrCents: 11_851_851_853_176,
        activeTotal: 12_345_678,
        activeMonthly: 9_876_543,
        activeYearly: 2_469_135,
        scheduledCancellations: 1_234_567,
        avgDaysRemaining: 364.96,
        newToday: 12_345,
        renewalsToday: 67_890,
        cancellationsToday: 1_234,
        totalSubscribers: 98_765_432,
        totalRevenueCents: 123_456_789_012_345,
      },
    },
  },
  play: async ({ canvasElement }) => {
    await expectCards(canvasElement, [
      ['MRR', '$9,876,543,210.98'],
      ['ARR', '$118,518,518,531.76'],
      ['Today', '12,345 new · 67,890 renewals · 1,234 cancels'],
      ['Currency', 'USD'],
      ['Active (Total)', '12,345,678'],
      ['Active (Monthly)', '9,876,543'],
      ['Active (Yearly)', '2,469,135'],
      ['Scheduled Cancellations', '1,234,567'],
      ['Avg Days Remaining', '365.0'],
      ['Total Subscribers', '98,765,432'],
      ['Total Revenue', '$1,234,567,890,123'],
    ]);
    const view = within(canvasElement).getByRole('region', { name: 'Dashboard' });
    for (const card of within(view).getAllByRole('region')) {
      await expect(card.scrollWidth).toBeLessThanOrEqual(card.clientWidth);
    }
    await expect(view.scrollWidth).toBeLessThanOrEqual(view.clientWidth);
  },
};

/** The stats answered with nothing to show. */
export const Empty: Story = {
  args: { state: { status: 'empty' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('No stats available.');
    await expect(canvas.queryByRole('region', { name: 'MRR' })).toBeNull();
  },
};
