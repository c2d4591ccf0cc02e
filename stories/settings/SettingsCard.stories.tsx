import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Button } from '../../src/components/Button';
import { SettingsCard } from '../../src/components/SettingsCard';

/** One titled card of the Settings screen: a region named by its heading, a description, content. */
const meta = {
  title: 'Settings/SettingsCard',
  component: SettingsCard,
  args: {
    title: 'Change password',
    description: 'Every other session is signed out when the password changes.',
    children: <Button>Change password</Button>,
  },
} satisfies Meta<typeof SettingsCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The default: an h3 (under a part's h2) naming the region, the description, the content. */
export const Default: Story = {
  play: async ({ canvas }) => {
    const region = canvas.getByRole('region', { name: 'Change password' });
    await expect(canvas.getByRole('heading', { level: 3, name: 'Change password' })).toBeVisible();
    await expect(region).toHaveTextContent(
      'Every other session is signed out when the password changes.',
    );
    await expect(canvas.getByRole('button', { name: 'Change password' })).toBeVisible();
  },
};

/** Straight under the page's h1: the heading is an h2. */
export const HeadingLevelTwo: Story = {
  args: { headingLevel: 2, title: 'Operators' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 2, name: 'Operators' })).toBeVisible();
    await expect(canvas.queryByRole('heading', { level: 3 })).toBeNull();
  },
};

/** No description: no empty paragraph under the heading. */
export const WithoutDescription: Story = {
  args: { description: undefined },
  play: async ({ canvas }) => {
    const region = canvas.getByRole('region', { name: 'Change password' });
    await expect(region.querySelector('p')).toBeNull();
  },
};

/** A long title and description wrap inside the card. */
export const LongText: Story = {
  args: {
    title: 'Two-factor sign-in for every operator of this console, owners included, from now on',
    description:
      'When this is on, every operator must set up an authenticator app at their next sign-in before they can do anything else in the console, and recovery codes are the only way in without the app.',
  },
  play: async ({ canvas }) => {
    const region = canvas.getByRole('region', { name: /Two-factor sign-in for every operator/ });
    await expect(region.scrollWidth).toBeLessThanOrEqual(region.clientWidth);
  },
};
