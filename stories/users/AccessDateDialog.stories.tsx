import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, fn, userEvent, within } from 'storybook/test';
import { AccessDateDialog } from '../../src/components/AccessDateDialog';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';

const meta = {
  title: 'Users/AccessDateDialog',
  component: AccessDateDialog,
  args: {
    isOpen: true,
    kind: 'revoke_on_date',
    email: 'ada@example.com',
    now: new Date(FIXTURE_NOW),
    onConfirm: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof AccessDateDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Revoke on a date: starts at tomorrow 09:00 UTC (§9) and confirms it in wire form (§5). */
export const RevokeOnDate: Story = {
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog', {
      name: 'Revoke access on a date',
    });
    await expect(dialog).toHaveAccessibleDescription(
      'Revoke forum access for ada@example.com at the date and time below.',
    );
    const input = within(dialog).getByLabelText('Date and time (UTC)');
    await expect(input).toHaveAttribute('type', 'datetime-local');
    await expect(input).toHaveValue('2026-11-21T09:00');
    await expect(input).toHaveFocus();
    await expect(input).toHaveAccessibleDescription('Chosen time: 2026-11-21 09:00 UTC.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await expect(args.onConfirm).toHaveBeenCalledOnce();
    await expect(args.onConfirm).toHaveBeenCalledWith('2026-11-21 09:00:00');
    input.focus();
  },
};

/** Grant until a date: another date and time, confirmed with Enter. */
export const GrantUntilDate: Story = {
  args: { ...RevokeOnDate.args, kind: 'grant_on_date' },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog', {
      name: 'Grant access until a date',
    });
    await expect(dialog).toHaveAccessibleDescription(
      'Grant forum access to ada@example.com now, until the date and time below.',
    );
    const input = within(dialog).getByLabelText('Date and time (UTC)');
    fireEvent.change(input, { target: { value: '2026-12-24T18:30' } });
    await expect(input).toHaveValue('2026-12-24T18:30');
    await expect(within(dialog).getByText('Chosen time: 2026-12-24 18:30 UTC.')).toBeVisible();
    await userEvent.type(input, '{Enter}');
    await expect(args.onConfirm).toHaveBeenCalledOnce();
    await expect(args.onConfirm).toHaveBeenCalledWith('2026-12-24 18:30:00');
  },
};

/** An incomplete date cannot be confirmed. */
export const IncompleteDate: Story = {
  args: { ...RevokeOnDate.args },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog', {
      name: 'Revoke access on a date',
    });
    const input = within(dialog).getByLabelText('Date and time (UTC)');
    fireEvent.change(input, { target: { value: '' } });
    await expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await expect(input).toHaveAccessibleDescription('Choose a date and a time.');
    await userEvent.type(input, '{Enter}');
    await expect(args.onConfirm).not.toHaveBeenCalled();
  },
};

/** Cancel and Escape report a cancel. */
export const Cancelled: Story = {
  args: { ...RevokeOnDate.args },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog', {
      name: 'Revoke access on a date',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    await expect(args.onCancel).toHaveBeenCalledTimes(2);
    await expect(args.onConfirm).not.toHaveBeenCalled();
  },
};
