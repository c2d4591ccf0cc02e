import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { SettingsScreen } from '../../src/screens/SettingsScreen';
import { withScreen } from '../support/withScreen';

/** The Settings screen (§2 Settings): a placeholder; it calls no API. */
const meta = {
  title: 'Screens/Settings',
  component: SettingsScreen,
  decorators: [withScreen],
  parameters: { screen: { route: '/settings' }, msw: { handlers: [] } },
} satisfies Meta<typeof SettingsScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The title and the placeholder text. */
export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(
      canvas.getByText('Environment and integration settings will go here.'),
    ).toBeVisible();
  },
};
