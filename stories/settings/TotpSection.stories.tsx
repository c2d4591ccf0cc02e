import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { TotpSection } from '../../src/components/TotpSection';
import { RECOVERY_CODES, SETUP } from './accountData';

/** Two-factor sign-in in every state: off, starting, set-up with QR, wrong code, codes, on, turn off. */
const meta = {
  title: 'Settings/TotpSection',
  component: TotpSection,
  args: {
    state: { step: 'off', error: null },
    disable: { status: 'closed' },
    onSetUp: fn(),
    onEnable: fn(),
    onCancelSetup: fn(),
    onDownloadCodes: fn(),
    onAcknowledgeCodes: fn(),
    onDisableRequest: fn(),
    onDisable: fn(),
    onDisableCancel: fn(),
    onCopy: fn(() => Promise.resolve()),
  },
} satisfies Meta<typeof TotpSection>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Off: the status says so, and "Set up two-factor sign-in" starts the set-up. */
export const Off: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText(/Signing in needs only your password/)).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Set up two-factor sign-in' }));
    await expect(args.onSetUp).toHaveBeenCalledOnce();
  },
};

/** The set-up could not start: the server's message above the button, which stays usable. */
export const SetupFailed: Story = {
  args: { state: { step: 'off', error: 'Internal server error' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Internal server error');
    await expect(canvas.getByRole('button', { name: 'Set up two-factor sign-in' })).toBeEnabled();
  },
};

/** Asking the server for a secret: the button is busy. */
export const Starting: Story = {
  args: { state: { step: 'starting' } },
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Set up two-factor sign-in' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
  },
};

/** The QR code, the key in groups of four, and the code field; Turn on waits for 6 digits. */
export const SetupWithQr: Story = {
  args: { state: { step: 'setup', ...SETUP, isVerifying: false, error: null } },
  play: async ({ canvas, args }) => {
    const qr = await canvas.findByRole('img', {
      name: 'QR code that adds MG Admin Console to your authenticator app',
    });
    await expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;utf8,/);
    await expect(canvas.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Copy key' }));
    await expect(args.onCopy).toHaveBeenCalledWith(SETUP.secret);
    await expect(await canvas.findByText('Copied.')).toBeVisible();
    const turnOn = canvas.getByRole('button', { name: 'Turn on' });
    await expect(turnOn).toBeDisabled();
    await userEvent.type(canvas.getByLabelText('Code from your authenticator app'), '123 456');
    await userEvent.click(turnOn);
    await expect(args.onEnable).toHaveBeenCalledWith('123456');
  },
};

/** A wrong code: the server's message next to the field, which is marked invalid. */
export const WrongCode: Story = {
  args: {
    state: {
      step: 'setup',
      ...SETUP,
      isVerifying: false,
      error: 'That code is not valid. Enter the current 6-digit code.',
    },
  },
  play: async ({ canvas }) => {
    const field = canvas.getByLabelText('Code from your authenticator app');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(
      /That code is not valid. Enter the current 6-digit code./,
    );
    await canvas.findByRole('img', { name: /QR code/ });
  },
};

/** The 10 recovery codes, once: the warning, Copy, Download and "I have stored them". */
export const RecoveryCodesShown: Story = {
  args: { state: { step: 'codes', codes: RECOVERY_CODES } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText(/Store these codes now: they are shown once/)).toBeVisible();
    const list = canvas.getByRole('list', { name: 'Recovery codes' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await userEvent.click(canvas.getByRole('button', { name: 'Copy codes' }));
    await expect(args.onCopy).toHaveBeenCalledWith(RECOVERY_CODES.join('\n'));
    await userEvent.click(canvas.getByRole('button', { name: 'Download codes (.txt)' }));
    await expect(args.onDownloadCodes).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'I have stored them' }));
    await expect(args.onAcknowledgeCodes).toHaveBeenCalledOnce();
  },
};

/** On: the status says so, and "Turn off two-factor sign-in" opens the dialog. */
export const On: Story = {
  args: { state: { step: 'on' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('On')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    await expect(args.onDisableRequest).toHaveBeenCalledOnce();
  },
};

/** The turn-off dialog: password and a current code, then Turn off. */
export const DisableForm: Story = {
  args: { state: { step: 'on' }, disable: { status: 'open', isSubmitting: false, error: null } },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('dialog', {
      name: 'Turn off two-factor sign-in?',
    });
    const turnOff = within(dialog).getByRole('button', { name: 'Turn off' });
    await expect(turnOff).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'secret words');
    await userEvent.type(
      within(dialog).getByLabelText('Code from your authenticator app'),
      '654321',
    );
    await userEvent.click(turnOff);
    await expect(args.onDisable).toHaveBeenCalledWith({ password: 'secret words', otp: '654321' });
  },
};

/** A wrong password in the turn-off dialog: the message next to the password. */
export const DisableWrongPassword: Story = {
  args: {
    state: { step: 'on' },
    disable: {
      status: 'open',
      isSubmitting: false,
      error: { field: 'password', message: 'Your current password is not correct.' },
    },
  },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByLabelText('Current password')).toHaveAccessibleDescription(
      'Your current password is not correct.',
    );
  },
};

/** An owner requires two-factor sign-in: the refusal shows in the dialog. */
export const PolicyRefusal: Story = {
  args: {
    state: { step: 'on' },
    disable: {
      status: 'open',
      isSubmitting: false,
      error: {
        field: 'form',
        message: 'An owner requires two-factor sign-in, so it cannot be turned off.',
      },
    },
  },
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'An owner requires two-factor sign-in, so it cannot be turned off.',
    );
  },
};
