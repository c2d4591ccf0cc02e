import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { DetailList } from '../../src/components/DetailList';
import { Badge } from '../../src/components/Badge';

const meta = {
  title: 'Primitives/DetailList',
  component: DetailList,
  // Shown at the drawer's width, where the component lives (§2 Subscription details).
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 'var(--drawer-width)', padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
  args: {
    items: [
      { label: 'Email', value: 'johndoe@example.com' },
      { label: 'Subscription ID', value: '1', kind: 'code' },
      { label: 'Status', value: <Badge tone="success">active</Badge> },
      { label: 'Amount', value: '19.99 USD', kind: 'number' },
      { label: 'Billing Anchor (day)', value: 0, kind: 'number' },
    ],
  },
} satisfies Meta<typeof DetailList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Label/value pairs in a description list, in the order given; a 0 is a value, not missing. */
export const Default: Story = {
  play: async ({ canvas }) => {
    const terms = canvas.getAllByRole('term').map((term) => term.textContent);
    await expect(terms).toEqual([
      'Email',
      'Subscription ID',
      'Status',
      'Amount',
      'Billing Anchor (day)',
    ]);
    const values = canvas.getAllByRole('definition');
    await expect(values[0]).toHaveTextContent('johndoe@example.com');
    await expect(values[1]).toHaveAttribute('data-kind', 'code');
    await expect(values[2]).toHaveTextContent('active');
    await expect(values[4]).toHaveTextContent(/^0$/);
  },
};

/** Missing values (null, undefined, blank, an already-formatted dash) show a dash. */
export const Empty: Story = {
  args: {
    ...Default.args,
    items: [
      { label: 'Name', value: null },
      { label: 'Address/Region', value: undefined },
      { label: 'Email Marketing Status', value: '   ' },
      { label: 'Store ID', value: '—', kind: 'code' },
    ],
  },
  play: async ({ canvas }) => {
    const values = canvas.getAllByRole('definition');
    await expect(values).toHaveLength(4);
    for (const value of values) await expect(value).toHaveTextContent(/^—$/);
    // A dash is set as plain text, never in the monospace of a present identifier.
    await expect(values[3]).toHaveAttribute('data-kind', 'text');
  },
};

/** Long unbroken values wrap inside the value column instead of overflowing it. */
export const LongText: Story = {
  args: {
    ...Default.args,
    items: [
      {
        label: 'Email',
        value:
          'maximilian.alexander.wolfeschlegelsteinhausen@longcompanyname-enterprises.example.com',
      },
      {
        label: 'Subscription ID',
        value: 'sub_01HZX4Q9V3K2M8N7P6R5S4T3W2Y1-0123456789abcdef',
        kind: 'code',
      },
    ],
  },
  play: async ({ canvas, canvasElement }) => {
    const list = canvasElement.querySelector('dl');
    await expect(list).not.toBeNull();
    await expect(list!.scrollWidth).toBeLessThanOrEqual(list!.clientWidth);
    await expect(canvas.getAllByRole('definition')[0]).toHaveTextContent('longcompanyname');
  },
};
