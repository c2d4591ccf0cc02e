import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { SettingsView } from '../../src/components/SettingsView';

const meta = {
  title: 'Settings/SettingsView',
  component: SettingsView,
  // The screen sits in the layout's padded main landmark; the story gives it the same room.
  parameters: { layout: 'fullscreen' },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-5)' }}>
        <Story />
      </div>
    ),
  ],
  args: {},
} satisfies Meta<typeof SettingsView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The §2 Settings placeholder. */
export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(canvas.getByRole('region', { name: 'Settings' })).toHaveTextContent(
      'Environment and integration settings will go here.',
    );
  },
};
