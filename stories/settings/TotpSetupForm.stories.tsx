import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { TotpSetupForm } from '../../src/components/TotpSection/TotpSetupForm';
import { SETUP } from './accountData';

const QR_NAME = 'QR code that adds MG Admin Console to your authenticator app';

/** The set-up of two-factor sign-in: QR code, the key in groups of four, the code field. */
const meta = {
  title: 'Settings/TotpSetupForm',
  component: TotpSetupForm,
  args: {
    ...SETUP,
    isVerifying: false,
    error: null,
    onEnable: fn(),
    onCancel: fn(),
    onCopy: fn(() => Promise.resolve()),
  },
} satisfies Meta<typeof TotpSetupForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Ready: the QR code, the grouped key; Turn on waits for six digits and sends them unspaced. */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    await canvas.findByRole('img', { name: QR_NAME });
    await expect(canvas.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeVisible();
    const field = canvas.getByLabelText('Code from your authenticator app');
    await expect(field).toHaveAccessibleDescription('The 6 digits the app shows now.');
    const turnOn = canvas.getByRole('button', { name: 'Turn on' });
    await userEvent.type(field, '12345');
    await expect(turnOn).toBeDisabled();
    await userEvent.type(field, '6{Enter}');
    await expect(args.onEnable).toHaveBeenCalledWith('123456');
  },
};

/** Copy key puts the unspaced key on the clipboard and announces "Copied.". */
export const CopyKey: Story = {
  play: async ({ canvas, args }) => {
    await canvas.findByRole('img', { name: QR_NAME });
    await userEvent.click(canvas.getByRole('button', { name: 'Copy key' }));
    await expect(args.onCopy).toHaveBeenCalledWith(SETUP.secret);
    await expect(await canvas.findByText('Copied.')).toBeVisible();
  },
};

/** Cancel leaves two-factor sign-in off. */
export const Cancel: Story = {
  play: async ({ canvas, args }) => {
    await canvas.findByRole('img', { name: QR_NAME });
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel' }));
    await expect(args.onCancel).toHaveBeenCalledOnce();
    await expect(args.onEnable).not.toHaveBeenCalled();
  },
};

/** Checking the code: Turn on is busy, both buttons disabled. */
export const Verifying: Story = {
  args: { isVerifying: true },
  play: async ({ canvas }) => {
    await canvas.findByRole('img', { name: QR_NAME });
    const turnOn = canvas.getByRole('button', { name: 'Turn on' });
    await expect(turnOn).toBeDisabled();
    await expect(turnOn).toHaveAttribute('aria-busy', 'true');
    await expect(canvas.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  },
};

/** A wrong code: the message is announced and describes the field, which is marked invalid. */
export const WrongCode: Story = {
  args: { error: 'That code is not valid. Enter the current 6-digit code.' },
  play: async ({ canvas }) => {
    await canvas.findByRole('img', { name: QR_NAME });
    const field = canvas.getByLabelText('Code from your authenticator app');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(
      'That code is not valid. Enter the current 6-digit code. The 6 digits the app shows now.',
    );
    await expect(canvas.getByRole('alert')).toBeVisible();
  },
};

/** Letters in the code never enable Turn on. */
export const NotACode: Story = {
  play: async ({ canvas, args }) => {
    await canvas.findByRole('img', { name: QR_NAME });
    await userEvent.type(
      canvas.getByLabelText('Code from your authenticator app'),
      '12a456{Enter}',
    );
    await expect(canvas.getByRole('button', { name: 'Turn on' })).toBeDisabled();
    await expect(args.onEnable).not.toHaveBeenCalled();
  },
};
