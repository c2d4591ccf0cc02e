import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState } from 'react';
import { expect, fn, userEvent, within } from 'storybook/test';
import { Button } from '../../src/components/Button';
import {
  TotpDisableDialog,
  type TotpDisableState,
} from '../../src/components/TotpSection/TotpDisableDialog';

const TITLE = 'Turn off two-factor sign-in?';

/** The open dialog (it lives in a portal, so plays look in document.body). */
async function findDialog() {
  return within(document.body).findByRole('dialog', { name: TITLE });
}

/** Password and a current code before two-factor sign-in is turned off. */
const meta = {
  title: 'Settings/TotpDisableDialog',
  component: TotpDisableDialog,
  args: {
    state: { status: 'open', isSubmitting: false, error: null },
    onSubmit: fn(),
    onCancel: fn(),
    returnFocusRef: { current: null },
  },
} satisfies Meta<typeof TotpDisableDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Open: Turn off waits for a password and six digits, then sends them. */
export const Open: Story = {
  play: async ({ args }) => {
    const dialog = await findDialog();
    await expect(dialog).toHaveAccessibleDescription(/Enter your password and a current code/);
    const turnOff = within(dialog).getByRole('button', { name: 'Turn off' });
    await expect(turnOff).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'secret words');
    await expect(turnOff).toBeDisabled();
    await userEvent.type(
      within(dialog).getByLabelText('Code from your authenticator app'),
      '654 321',
    );
    await userEvent.click(turnOff);
    await expect(args.onSubmit).toHaveBeenCalledWith({ password: 'secret words', otp: '654321' });
  },
};

/** Sending: Turn off is busy. */
export const Submitting: Story = {
  args: { state: { status: 'open', isSubmitting: true, error: null } },
  play: async () => {
    const dialog = await findDialog();
    const turnOff = within(dialog).getByRole('button', { name: 'Turn off' });
    await expect(turnOff).toBeDisabled();
    await expect(turnOff).toHaveAttribute('aria-busy', 'true');
  },
};

/** INCORRECT_PASSWORD: next to the password, which is marked invalid. */
export const WrongPassword: Story = {
  args: {
    state: {
      status: 'open',
      isSubmitting: false,
      error: { field: 'password', message: 'Your current password is not correct.' },
    },
  },
  play: async () => {
    const dialog = await findDialog();
    const password = within(dialog).getByLabelText('Current password');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAccessibleDescription('Your current password is not correct.');
    await expect(
      within(dialog).getByLabelText('Code from your authenticator app'),
    ).not.toHaveAttribute('aria-invalid');
  },
};

/** OTP_INVALID: next to the code. */
export const WrongCode: Story = {
  args: {
    state: {
      status: 'open',
      isSubmitting: false,
      error: { field: 'otp', message: 'That code is not valid. Enter the current 6-digit code.' },
    },
  },
  play: async () => {
    const dialog = await findDialog();
    const otp = within(dialog).getByLabelText('Code from your authenticator app');
    await expect(otp).toHaveAttribute('aria-invalid', 'true');
    await expect(otp).toHaveAccessibleDescription(
      'That code is not valid. Enter the current 6-digit code.',
    );
  },
};

/** TOTP_REQUIRED_BY_POLICY: a banner for the whole form. */
export const RequiredByPolicy: Story = {
  args: {
    state: {
      status: 'open',
      isSubmitting: false,
      error: {
        field: 'form',
        message: 'Two-factor sign-in is required for every operator: it cannot be turned off.',
      },
    },
  },
  play: async () => {
    const dialog = await findDialog();
    await expect(within(dialog).getByText(/it cannot be turned off\.$/)).toBeVisible();
    await expect(within(dialog).getByLabelText('Current password')).not.toHaveAttribute(
      'aria-invalid',
    );
  },
};

/** Closed: nothing is shown. */
export const Closed: Story = {
  args: { state: { status: 'closed' } },
  play: async () => {
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
  },
};

/**
 * Keyboard: opened from its button, Escape cancels; the form starts empty on the next opening and
 * focus returns to the button that opened it.
 */
export const EscapeReturnsFocus: Story = {
  render: function Render(args) {
    const [state, setState] = useState<TotpDisableState>({ status: 'closed' });
    const triggerRef = useRef<HTMLButtonElement>(null);
    return (
      <>
        <Button
          ref={triggerRef}
          onClick={() => setState({ status: 'open', isSubmitting: false, error: null })}
        >
          Turn off two-factor sign-in
        </Button>
        <TotpDisableDialog
          {...args}
          state={state}
          returnFocusRef={triggerRef}
          onCancel={() => {
            args.onCancel();
            setState({ status: 'closed' });
          }}
        />
      </>
    );
  },
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: 'Turn off two-factor sign-in' });
    await userEvent.click(trigger);
    let dialog = await findDialog();
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'secret');
    await userEvent.keyboard('{Escape}');
    await expect(args.onCancel).toHaveBeenCalledOnce();
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
    await expect(trigger).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    dialog = await findDialog();
    await expect(within(dialog).getByLabelText('Current password')).toHaveValue('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await expect(args.onCancel).toHaveBeenCalledTimes(2);
    await expect(trigger).toHaveFocus();
    trigger.blur();
  },
};
