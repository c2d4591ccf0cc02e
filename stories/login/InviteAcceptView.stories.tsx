import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { InviteAcceptView } from '../../src/components/InviteAcceptView';

const form = {
  status: 'form' as const,
  email: 'sam.support@team.example',
  name: 'Sam Support',
  roleLabel: 'Support',
  expiresAt: '2026-11-23T12:00:00.000Z',
  isSaving: false,
  error: null,
};

const meta = {
  title: 'Login/InviteAcceptView',
  component: InviteAcceptView,
  parameters: { layout: 'fullscreen' },
  args: {
    state: form,
    password: '',
    confirmation: '',
    onPasswordChange: fn(),
    onConfirmationChange: fn(),
    onSubmit: fn(),
    signInHref: '/admin/login',
  },
} satisfies Meta<typeof InviteAcceptView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The link is checked first. */
export const Checking: Story = {
  args: { state: { status: 'checking' } },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('heading', { level: 1, name: 'Set up your account' }),
    ).toBeVisible();
    await expect(canvas.getByRole('status')).toHaveTextContent('Checking your invitation…');
  },
};

/** A valid invitation: who it is for, the role, the expiry, and the password rule. */
export const Form: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText(/you are invited as/)).toHaveTextContent(
      'Sam Support, you are invited as Support with sam.support@team.example. Choose your password; the link works until 2026-11-23 12:00 UTC.',
    );
    const password = canvas.getByLabelText('New password');
    await expect(password).toHaveFocus();
    await expect(password).toHaveAttribute('autocomplete', 'new-password');
    await expect(password).toHaveAccessibleDescription(
      'At least 12 characters besides spaces, and not a password that is common or has leaked.',
    );
    await userEvent.type(password, 'x');
    await expect(args.onPasswordChange).toHaveBeenLastCalledWith('x');
    await userEvent.type(canvas.getByLabelText('Confirm new password'), 'y');
    await expect(args.onConfirmationChange).toHaveBeenLastCalledWith('y');
    await userEvent.click(canvas.getByRole('button', { name: 'Set password' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** The server refused the password: its sentence is announced. */
export const WeakPassword: Story = {
  args: {
    state: {
      ...form,
      error: 'This password is too common. Choose one that is not on lists of leaked passwords.',
    },
    password: 'password1234',
    confirmation: 'password1234',
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('This password is too common.');
  },
};

/** Saving: the button is busy and disabled. */
export const Saving: Story = {
  args: {
    state: { ...form, isSaving: true },
    password: 'a good long one',
    confirmation: 'a good long one',
  },
  play: async ({ canvas, args }) => {
    const button = canvas.getByRole('button', { name: 'Setting password…' });
    await expect(button).toBeDisabled();
    await userEvent.type(canvas.getByLabelText('Confirm new password'), '{Enter}');
    await expect(args.onSubmit).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A used, replaced or expired link. */
export const Invalid: Story = {
  args: { state: { status: 'invalid' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'This invitation link is not valid any more',
    );
    await expect(canvas.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute(
      'href',
      '/admin/login',
    );
    await expect(canvas.queryByLabelText('New password')).toBeNull();
  },
};

/** The server could not be asked. */
export const CheckFailed: Story = {
  args: { state: { status: 'error', message: 'Network error' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Error: Network error');
  },
};

/** The password is set: on to sign-in. */
export const Done: Story = {
  args: { state: { status: 'done', email: 'sam.support@team.example' } },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText('Your password is set. Sign in as sam.support@team.example.'),
    ).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/admin/login',
    );
  },
};

/** A long name and email wrap inside the card. */
export const LongNames: Story = {
  args: {
    state: {
      ...form,
      name: 'Maximiliana Alexandra Konstantinopoulou-Vanderbilt',
      email: 'maximiliana.alexandra.konstantinopoulou-vanderbilt@subsidiary.team.example',
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText(/Konstantinopoulou-Vanderbilt@subsidiary/i)).toBeVisible();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
