import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { MgStatusBadge } from '../../src/components/MgStatusBadge';
import type { Tone, UserRow } from '../../src/domain/types';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';

type AccessFields = Pick<UserRow, 'mgStatus' | 'mgStatusLabel' | 'expiresAt'>;

/** Every §4 access-status case: what the row holds, and the text and tone it must show. */
const CASES: { name: string; row: AccessFields; text: string; tone: Tone }[] = [
  {
    name: 'active, no label',
    row: { mgStatus: 'active', mgStatusLabel: null, expiresAt: null },
    text: 'Active',
    tone: 'success',
  },
  {
    name: 'active, future expiry',
    row: { mgStatus: 'active', mgStatusLabel: null, expiresAt: '2026-12-01T09:00:00Z' },
    text: 'Scheduled',
    tone: 'warning',
  },
  {
    name: 'active, past expiry',
    row: { mgStatus: 'active', mgStatusLabel: null, expiresAt: '2026-11-01T09:00:00Z' },
    text: 'Active',
    tone: 'success',
  },
  {
    name: 'cancelled, no label',
    row: { mgStatus: 'cancelled', mgStatusLabel: null, expiresAt: null },
    text: 'Cancelled',
    tone: 'danger',
  },
  {
    name: 'missing',
    row: { mgStatus: null, mgStatusLabel: null, expiresAt: null },
    text: '—',
    tone: 'neutral',
  },
  {
    name: "label 'Active'",
    row: { mgStatus: 'active', mgStatusLabel: 'Active', expiresAt: null },
    text: 'Active',
    tone: 'success',
  },
  {
    name: "label 'Active (cancels at period end)'",
    row: { mgStatus: 'active', mgStatusLabel: 'Active (cancels at period end)', expiresAt: null },
    text: 'Active (cancels at period end)',
    tone: 'warning',
  },
  {
    name: "label 'Expired'",
    row: { mgStatus: 'cancelled', mgStatusLabel: 'Expired', expiresAt: null },
    text: 'Expired',
    tone: 'danger',
  },
  {
    name: "label 'Cancelled'",
    row: { mgStatus: 'cancelled', mgStatusLabel: 'Cancelled', expiresAt: null },
    text: 'Cancelled',
    tone: 'danger',
  },
  {
    name: 'another label',
    row: { mgStatus: 'active', mgStatusLabel: 'Pending invite', expiresAt: null },
    text: 'Pending invite',
    tone: 'neutral',
  },
];

const SCHEDULED_TOOLTIP = 'Scheduled to expire at 2026-12-01 09:00 (UTC)';

const meta = {
  title: 'Users/MgStatusBadge',
  component: MgStatusBadge,
  args: {
    row: { mgStatus: 'active', mgStatusLabel: null, expiresAt: '2026-12-01T09:00:00Z' },
    now: new Date(FIXTURE_NOW),
  },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof MgStatusBadge>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An active user with a future expiry: Scheduled, with its UTC tooltip reachable by keyboard. */
export const Scheduled: Story = {
  play: async ({ canvas }) => {
    const badge = canvas.getByText('Scheduled');
    await expect(badge).toHaveAttribute('data-tone', 'warning');
    await expect(badge).toHaveAttribute('title', SCHEDULED_TOOLTIP);
    // Screen readers read the tooltip inline.
    await expect(badge).toHaveTextContent(`Scheduled (${SCHEDULED_TOOLTIP})`);
    // Keyboard users see it when the pill takes focus, and can dismiss it with Escape.
    const toggletip = canvas.getByRole('button', { name: `Scheduled (${SCHEDULED_TOOLTIP})` });
    await userEvent.tab();
    await expect(toggletip).toHaveFocus();
    const tooltip = await within(document.body).findByText(SCHEDULED_TOOLTIP, {
      selector: '[data-tooltip]',
    });
    await expect(tooltip).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(document.querySelector('[data-tooltip]')).toBeNull());
    await expect(toggletip).toHaveFocus();
    // A click (or tap) toggles it too.
    await userEvent.click(toggletip);
    await expect(
      await within(document.body).findByText(SCHEDULED_TOOLTIP, { selector: '[data-tooltip]' }),
    ).toBeVisible();
    await userEvent.click(toggletip);
    await waitFor(() => expect(document.querySelector('[data-tooltip]')).toBeNull());
    await userEvent.tab({ shift: true });
    await userEvent.tab();
    await expect(
      await within(document.body).findByText(SCHEDULED_TOOLTIP, { selector: '[data-tooltip]' }),
    ).toBeVisible();
  },
};

/** Without a label, an active user with no future expiry is Active (green). */
export const Active: Story = {
  args: { ...Scheduled.args, row: { mgStatus: 'active', mgStatusLabel: null, expiresAt: null } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Active')).toHaveAttribute('data-tone', 'success');
    await expect(canvas.getByText('Active')).not.toHaveAttribute('title');
  },
};

/** The server label wins: 'Active (cancels at period end)' is yellow. */
export const LabelCancelsAtPeriodEnd: Story = {
  args: {
    ...Scheduled.args,
    row: { mgStatus: 'active', mgStatusLabel: 'Active (cancels at period end)', expiresAt: null },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Active (cancels at period end)')).toHaveAttribute(
      'data-tone',
      'warning',
    );
  },
};

/** Every case of §4 side by side, each named by what the row holds. */
export const AllCases: Story = {
  render: ({ now }) => (
    <table style={{ borderCollapse: 'collapse' }}>
      <caption style={{ textAlign: 'start', fontWeight: 600 }}>mg_status badge cases</caption>
      <thead>
        <tr>
          <th scope="col" style={{ textAlign: 'start', paddingInlineEnd: 'var(--space-5)' }}>
            Row holds
          </th>
          <th scope="col" style={{ textAlign: 'start' }}>
            Badge
          </th>
        </tr>
      </thead>
      <tbody>
        {CASES.map((c) => (
          <tr key={c.name}>
            <th
              scope="row"
              style={{ textAlign: 'start', fontWeight: 400, paddingBlock: 'var(--space-1)' }}
            >
              {c.name}
            </th>
            <td>
              <MgStatusBadge row={c.row} now={now} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  ),
  play: async ({ canvas }) => {
    for (const c of CASES) {
      const row = canvas.getByRole('row', {
        name: new RegExp(`^${c.name.replace(/[()]/g, '\\$&')}`),
      });
      const badge = within(row).getByText(c.text);
      await expect(badge, c.name).toHaveAttribute('data-tone', c.tone);
    }
  },
};
