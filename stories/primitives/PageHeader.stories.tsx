import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { PageHeader } from '../../src/components/PageHeader';

const meta = {
  title: 'Primitives/PageHeader',
  component: PageHeader,
  args: {
    title: 'Subscriptions',
    children: <p style={{ margin: 0 }}>Click an email to view details.</p>,
  },
} satisfies Meta<typeof PageHeader>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A title with its hint. */
export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
    await expect(canvas.getByText('Click an email to view details.')).toBeVisible();
  },
};

/** A long title wraps; the hint moves under it. */
export const LongTitle: Story = {
  args: {
    title: 'Integrated Tracking (First-Party)',
    children: <p style={{ margin: 0 }}>Page 12 of 480 · 23,981 events · refreshed every 15 s</p>,
  },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 360 }}>
        <Story />
      </div>
    ),
  ],
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Integrated Tracking (First-Party)',
    );
  },
};
