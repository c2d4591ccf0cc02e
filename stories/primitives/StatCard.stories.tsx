import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { StatCard } from '../../src/components/Card';

/**
 * One labelled figure (§2 Dashboard, Metrics, ISR card rows): a region named by its label, so a
 * screen reader can jump to "MRR".
 */
const meta = {
  title: 'Primitives/StatCard',
  component: StatCard,
  args: { label: 'MRR', value: '$12,345.67' },
  decorators: [
    // One card at the width a dashboard row gives it (200 px); a story with its own layout opts out.
    (Story, { parameters }) =>
      parameters.cardWidth === false ? (
        <Story />
      ) : (
        <div style={{ width: 200 }}>
          <Story />
        </div>
      ),
  ],
} satisfies Meta<typeof StatCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A figure with its label. */
export const Default: Story = {
  play: async ({ canvas }) => {
    const card = canvas.getByRole('region', { name: 'MRR' });
    await expect(card).toHaveTextContent('$12,345.67');
    await expect(canvas.getByRole('heading', { level: 3, name: 'MRR' })).toBeVisible();
  },
};

/** With a hint line under the figure. */
export const WithHint: Story = {
  args: { label: 'Active', value: '1,204', hint: 'Currently active' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Active' })).toHaveTextContent('1,204');
    await expect(canvas.getByText('Currently active')).toBeVisible();
  },
};

/** A missing figure shows a dash, never 0 or NaN. */
export const Missing: Story = {
  args: { label: 'Avg Days Remaining', value: '—' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Avg Days Remaining' })).toHaveTextContent('—');
  },
};

/** While loading the figure is an ellipsis. */
export const Loading: Story = {
  args: { value: '…' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'MRR' })).toHaveTextContent('…');
  },
};

/** A row of cards, as on the dashboard. */
export const CardRow: Story = {
  parameters: { cardWidth: false },
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 200px)', gap: 8 }}>
      <StatCard label="MRR" value="$12,345.67" />
      <StatCard label="Active" value="1,204" hint="Currently active" />
      <StatCard label="Avg Days Remaining" value="—" />
    </div>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'MRR' })).toHaveTextContent('$12,345.67');
    await expect(canvas.getByText('Currently active')).toBeVisible();
  },
};
