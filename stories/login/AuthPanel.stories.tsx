import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { AuthPanel } from '../../src/components/AuthPanel';
import { PRODUCT_TITLE, VERSION_LABEL } from '../../src/components/AppLayout/brand';

/** The centred card of the signed-out pages: product title and version, the h1, then content. */
const meta = {
  title: 'Login/AuthPanel',
  component: AuthPanel,
  parameters: { layout: 'fullscreen' },
  args: {
    heading: 'Admin Login',
    headingId: 'auth-heading',
    children: (
      <form aria-labelledby="auth-heading">
        <p>The sign-in form goes here.</p>
      </form>
    ),
  },
} satisfies Meta<typeof AuthPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The page's main landmark: brand, the h1 by its id, and the content labelled by it. */
export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('main')).toBeVisible();
    await expect(canvas.getByText(PRODUCT_TITLE)).toBeVisible();
    await expect(canvas.getByText(VERSION_LABEL)).toBeVisible();
    const heading = canvas.getByRole('heading', { level: 1, name: 'Admin Login' });
    await expect(heading).toHaveAttribute('id', 'auth-heading');
    await expect(canvas.getByRole('form', { name: 'Admin Login' })).toHaveTextContent(
      'The sign-in form goes here.',
    );
  },
};

/** A long heading wraps inside the card instead of widening it. */
export const LongHeading: Story = {
  args: {
    heading: 'Accept your invitation to the MG Admin Console and choose a password for it',
    headingId: 'auth-long',
    children: <p>Content under a long heading.</p>,
  },
  play: async ({ canvas }) => {
    const heading = canvas.getByRole('heading', { level: 1 });
    await expect(heading).toHaveTextContent(/choose a password for it$/);
    const panel = heading.parentElement!;
    await expect(heading.scrollWidth).toBeLessThanOrEqual(panel.clientWidth);
  },
};
