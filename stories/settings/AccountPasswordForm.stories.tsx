import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { AccountPasswordForm } from '../../src/components/AccountPasswordForm';

/** Change password: idle, mismatch, saving, wrong current, refused new, done. */
const meta = {
  title: 'Settings/AccountPasswordForm',
  component: AccountPasswordForm,
  args: { state: { status: 'idle' }, onSubmit: fn() },
} satisfies Meta<typeof AccountPasswordForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The three fields with the rule as help text; a mismatch is caught before anything is sent. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 12 characters, not counting spaces, and not a commonly used password.',
    );
    await userEvent.type(canvas.getByLabelText('Current password'), 'old secret');
    await userEvent.type(canvas.getByLabelText('New password'), 'a much longer secret');
    await userEvent.type(canvas.getByLabelText('Confirm new password'), 'a much longer secreT');
    await userEvent.click(canvas.getByRole('button', { name: 'Change password' }));
    await expect(canvas.getByRole('alert')).toHaveTextContent('The new passwords do not match.');
    await expect(args.onSubmit).not.toHaveBeenCalled();
    await userEvent.clear(canvas.getByLabelText('Confirm new password'));
    await userEvent.type(canvas.getByLabelText('Confirm new password'), 'a much longer secret');
    await userEvent.click(canvas.getByRole('button', { name: 'Change password' }));
    await expect(args.onSubmit).toHaveBeenCalledWith({
      current: 'old secret',
      next: 'a much longer secret',
    });
  },
};

/** Sending: the button is busy. */
export const Saving: Story = {
  args: { state: { status: 'saving' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Change password' })).toBeDisabled();
  },
};

/** INCORRECT_PASSWORD: the server's message next to Current password. */
export const IncorrectCurrent: Story = {
  args: {
    state: { status: 'error', field: 'current', message: 'Your current password is not correct.' },
  },
  play: async ({ canvas }) => {
    const field = canvas.getByLabelText('Current password');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription('Your current password is not correct.');
  },
};

/** WEAK_PASSWORD: the server's message next to New password, before the rule. */
export const WeakPassword: Story = {
  args: {
    state: {
      status: 'error',
      field: 'next',
      message: 'This password is too common: choose another.',
    },
  },
  play: async ({ canvas }) => {
    const field = canvas.getByLabelText('New password');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(
      /^This password is too common: choose another\. At least 12 characters/,
    );
  },
};

/** Done: how many other sessions were ended. */
export const Done: Story = {
  args: { state: { status: 'done', sessionsEnded: 2 } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'Your password is changed. 2 other sessions were ended: sign in there again with the new password.',
    );
  },
};
