import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ConfirmDialog } from '../../src/components/ConfirmDialog';

const meta = {
  title: 'Primitives/ConfirmDialog',
  component: ConfirmDialog,
  args: {
    isOpen: true,
    title: 'Revoke access now?',
    description: 'ada@example.com loses forum access immediately.',
    confirmLabel: 'Revoke now',
    onConfirm: fn(),
    onCancel: fn(),
  },
} satisfies Meta<typeof ConfirmDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A destructive confirmation: Cancel has focus first; the confirm button reports. */
export const Destructive: Story = {
  play: async ({ args }) => {
    const body = within(document.body);
    const dialog = await body.findByRole('alertdialog', { name: 'Revoke access now?' });
    await expect(dialog).toHaveAccessibleDescription(
      'ada@example.com loses forum access immediately.',
    );
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke now' }));
    await expect(args.onConfirm).toHaveBeenCalledOnce();
    await expect(args.onCancel).not.toHaveBeenCalled();
    within(dialog).getByRole('button', { name: 'Cancel' }).focus();
  },
};

/** Cancel and Escape both report a cancel, never a confirm. */
export const Cancelled: Story = {
  args: { ...Destructive.args },
  play: async ({ args }) => {
    const body = within(document.body);
    const dialog = await body.findByRole('alertdialog', { name: 'Revoke access now?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    await expect(args.onCancel).toHaveBeenCalledTimes(2);
    await expect(args.onConfirm).not.toHaveBeenCalled();
  },
};

/** Closed: nothing is rendered. */
export const Closed: Story = {
  args: { ...Destructive.args, isOpen: false },
  play: async () => {
    await expect(within(document.body).queryByRole('alertdialog')).toBeNull();
  },
};
