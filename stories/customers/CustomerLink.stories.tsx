import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { CustomerLink } from '../../src/components/CustomerLink';
import { withRouter } from '../support/withRouter';

/** A link to a customer's page, as the tables and the drawer show an email. */
const meta = {
  title: 'Customers/CustomerLink',
  component: CustomerLink,
  decorators: [withRouter],
  args: { email: 'johndoe@example.com' },
} satisfies Meta<typeof CustomerLink>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The email, linking to /customers/<email, encoded>. */
export const Email: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('link', { name: 'johndoe@example.com' })).toHaveAttribute(
      'href',
      '/customers/johndoe%40example.com',
    );
  },
};

/** A long email in a narrow cell: cut with an ellipsis, the whole email in its title. */
export const Truncated: Story = {
  args: {
    email: 'maximiliana.featherstonehaugh-cholmondeley@a-very-long-subdomain.example.org',
    isTruncated: true,
  },
  decorators: [
    (Story) => (
      <div style={{ width: 160 }}>
        <Story />
      </div>
    ),
  ],
  play: async ({ canvas }) => {
    const link = canvas.getByRole('link');
    await expect(link).toHaveAttribute(
      'title',
      'maximiliana.featherstonehaugh-cholmondeley@a-very-long-subdomain.example.org',
    );
    await expect(link.scrollWidth).toBeGreaterThan(link.clientWidth);
  },
};

/** Its own text, with a name that says whose page it is. */
export const Labelled: Story = {
  args: { children: 'Customer page', 'aria-label': 'Customer page of johndoe@example.com' },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('link', { name: 'Customer page of johndoe@example.com' }),
    ).toHaveTextContent('Customer page');
  },
};
