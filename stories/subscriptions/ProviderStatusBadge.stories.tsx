import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ProviderStatusBadge } from '../../src/components/ProviderStatusBadge';
import type { Tone } from '../../src/domain/types';

/** Every §4 provider-status case: the value sent, and the text and tone it must show. */
const CASES: { status: string | null; text: string; tone: Tone }[] = [
  { status: 'active', text: 'active', tone: 'success' },
  { status: 'trialing', text: 'trialing', tone: 'success' },
  { status: 'paused', text: 'paused', tone: 'warning' },
  { status: 'past_due', text: 'past_due', tone: 'warning' },
  { status: 'cancelled', text: 'cancelled', tone: 'danger' },
  { status: 'expired', text: 'expired', tone: 'neutral' },
  { status: null, text: '—', tone: 'neutral' },
];

const meta = {
  title: 'Subscriptions/ProviderStatusBadge',
  component: ProviderStatusBadge,
  args: { status: 'active' },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof ProviderStatusBadge>;
export default meta;
type Story = StoryObj<typeof meta>;

/** active is green. */
export const Active: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('active')).toHaveAttribute('data-tone', 'success');
  },
};

/** A missing status is a grey dash. */
export const Missing: Story = {
  args: { ...Active.args, status: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('—')).toHaveAttribute('data-tone', 'neutral');
  },
};

/** Every case of §4 side by side, each named by the value sent. */
export const AllCases: Story = {
  render: () => (
    <table style={{ borderCollapse: 'collapse' }}>
      <caption style={{ textAlign: 'start', fontWeight: 600 }}>provider_status badge cases</caption>
      <thead>
        <tr>
          <th scope="col" style={{ textAlign: 'start', paddingInlineEnd: 'var(--space-5)' }}>
            Value sent
          </th>
          <th scope="col" style={{ textAlign: 'start' }}>
            Badge
          </th>
        </tr>
      </thead>
      <tbody>
        {CASES.map((c) => (
          <tr key={String(c.status)}>
            <th
              scope="row"
              style={{ textAlign: 'start', fontWeight: 400, paddingBlock: 'var(--space-1)' }}
            >
              {c.status ?? 'missing'}
            </th>
            <td>
              <ProviderStatusBadge status={c.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  play: async ({ canvas }) => {
    for (const c of CASES) {
      const row = canvas.getByRole('row', { name: new RegExp(`^${c.status ?? 'missing'} `) });
      await expect(
        within(within(row).getByRole('cell')).getByText(c.text),
        String(c.status),
      ).toHaveAttribute('data-tone', c.tone);
    }
  },
};
